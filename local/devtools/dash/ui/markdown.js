// Doc comments rendered from a safe subset of Markdown: paragraphs, "-"/"*"/"1." lists, fenced code,
// `code`, **bold**, *emphasis* and [links](https://...). The result is preact elements built from
// text, never HTML parsed from the comment, so a comment cannot inject markup or script; links go
// only to http(s) and mailto addresses.
import { html } from "./html.js";

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** A link target that cannot run script: http, https or mailto; anything else stays text. */
function safeHref(href) {
  return /^(https?:\/\/|mailto:)/i.test(href) ? href : null;
}

/** Inline Markdown of one paragraph as preact children. */
export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [whole, code, bold, em, label, href] = m;
    if (code !== undefined) out.push(html`<code>${code}</code>`);
    else if (bold !== undefined) out.push(html`<strong>${inline(bold)}</strong>`);
    else if (em !== undefined) out.push(html`<em>${inline(em)}</em>`);
    else if (safeHref(href)) out.push(html`<a href=${href} target="_blank" rel="noopener noreferrer">${inline(label)}</a>`);
    else out.push(whole);
    last = m.index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const ITEM = /^\s*(?:[-*]|\d+\.)\s+/;

/** Splits text into blocks: fenced code, lists (items with their continuation lines) and paragraphs. */
export function blocks(text) {
  const lines = String(text ?? "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const out = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
    } else if (line.trim().startsWith("```")) {
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith("```"); i++) code.push(lines[i]);
      i++;
      out.push({ type: "code", text: code.join("\n") });
    } else if (ITEM.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      for (; i < lines.length && lines[i].trim() !== ""; i++) {
        if (ITEM.test(lines[i])) items.push(lines[i].replace(ITEM, ""));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
      }
      out.push({ type: ordered ? "ol" : "ul", items });
    } else {
      const para = [];
      for (; i < lines.length && lines[i].trim() !== "" && !ITEM.test(lines[i]) && !lines[i].trim().startsWith("```"); i++) {
        para.push(lines[i].trim());
      }
      out.push({ type: "p", text: para.join(" ") });
    }
  }
  return out;
}

export function Markdown({ text, class: cls }) {
  return html`<div class="markdown ${cls ?? ""}" data-testid="markdown">
    ${blocks(text).map((b) =>
      b.type === "code"
        ? html`<pre><code>${b.text}</code></pre>`
        : b.type === "p"
          ? html`<p>${inline(b.text)}</p>`
          : b.type === "ol"
            ? html`<ol>${b.items.map((it) => html`<li>${inline(it)}</li>`)}</ol>`
            : html`<ul>${b.items.map((it) => html`<li>${inline(it)}</li>`)}</ul>`,
    )}
  </div>`;
}
