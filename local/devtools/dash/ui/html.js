// htm bound to preact: tagged-template JSX without a build step.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);

/** Milliseconds for humans. */
export function ms(v) {
  if (v === undefined || v === null) return "…";
  return v < 1 ? `${(v * 1000).toFixed(0)} µs` : v < 1000 ? `${v.toFixed(1)} ms` : `${(v / 1000).toFixed(2)} s`;
}

/** JSON text pretty-printed when it parses, as is otherwise. */
export function pretty(text) {
  if (text === undefined || text === null) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return String(text);
  }
}
