// Merging campaign parameters into a URL's query, everything else kept as it is. Imports nothing, so the
// web app's UTM builder previews with this very code (web/ui/utm-builder.tsx).

/** The parameters in the order they are added to a query that lacks them. */
export const UTM_FIELDS = ["source", "medium", "campaign", "term", "content"] as const;

/** UtmValues are the campaign parameters by name; an absent or blank one is left alone. */
export type UtmValues = Partial<Record<(typeof UTM_FIELDS)[number], string>>;

/** The decoded name of one `name=value` part of a query, as URLSearchParams reads it. */
function paramName(part: string): string {
  const eq = part.indexOf("=");
  const raw = (eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, " ");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * mergeUtm sets `utm_<name>` for each given value in `href` (a WHATWG-serialized URL). The first
 * parameter of that name keeps its place with the new value and any repeats are dropped; a name not
 * there is added at the end of the query. Every other byte (path, other parameters in their order and
 * encoding, the fragment) stays as it was. `null` instead of `utm` removes all five parameters.
 */
export function mergeUtm(href: string, utm: UtmValues | null): string {
  const hash = href.indexOf("#");
  const fragment = hash === -1 ? "" : href.slice(hash);
  const beforeHash = hash === -1 ? href : href.slice(0, hash);
  const q = beforeHash.indexOf("?");
  const base = q === -1 ? beforeHash : beforeHash.slice(0, q);
  const parts = q === -1 || q === beforeHash.length - 1 ? [] : beforeHash.slice(q + 1).split("&");

  const wanted = new Map<string, string | null>();
  for (const f of UTM_FIELDS) {
    const value = utm === null ? null : utm[f]?.trim();
    if (utm === null || (value !== undefined && value !== "")) wanted.set(`utm_${f}`, value ?? null);
  }
  const placed = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const name = paramName(part);
    if (!wanted.has(name)) {
      out.push(part);
      continue;
    }
    if (placed.has(name)) continue;
    placed.add(name);
    const value = wanted.get(name);
    if (value !== null && value !== undefined) out.push(`${name}=${encodeURIComponent(value)}`);
  }
  for (const [name, value] of wanted) {
    if (!placed.has(name) && value !== null) out.push(`${name}=${encodeURIComponent(value)}`);
  }
  // A query emptied by the merge goes with its "?"; one that was empty to begin with stays.
  const query = out.length > 0 ? `?${out.join("&")}` : q !== -1 && parts.length === 0 ? "?" : "";
  return `${base}${query}${fragment}`;
}
