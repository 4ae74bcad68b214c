// The explorer's request from its form, and the same request as a curl command.

/** A path segment's value: `:name` takes one encoded segment, `*name` the rest of the path. */
function fillPath(path, values) {
  return path
    .split("/")
    .map((seg) => {
      if (!seg.startsWith(":") && !seg.startsWith("*")) return seg;
      const v = values[`path:${seg.slice(1)}`] ?? "";
      return seg.startsWith("*") ? v.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(v);
    })
    .join("/");
}

const isArray = (t) => t?.kind === "array" || (t?.kind === "validated" && t.base.kind === "array");

/**
 * What /api/call sends: the path with its query string (an array's comma-separated items as repeated
 * keys; empty optional fields left out), the header parameters, the body text and the token.
 */
export function requestOf(path, method, params, values, body, token) {
  const query = new URLSearchParams();
  const headers = {};
  for (const p of params) {
    const v = values[`${p.place}:${p.name}`] ?? "";
    if (v === "" && p.optional) continue;
    if (p.place === "query") for (const item of isArray(p.type) ? v.split(",") : [v]) query.append(p.name, item);
    if (p.place === "header") headers[p.name] = v;
  }
  const qs = query.toString();
  const out = { method, path: fillPath(path, values) + (qs ? `?${qs}` : ""), headers };
  if (body !== null && body.trim() !== "") out.body = body;
  if (token) out.token = token;
  return out;
}

/** A word for a POSIX shell, in single quotes. */
function shellQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/** The request as a curl command line against the app at baseUrl. */
export function curlCommand(baseUrl, req) {
  const parts = ["curl", "-X", req.method, shellQuote(baseUrl + req.path)];
  for (const [k, v] of Object.entries(req.headers ?? {})) parts.push("-H", shellQuote(`${k}: ${v}`));
  if (req.token) parts.push("-H", shellQuote(`Authorization: Bearer ${req.token}`));
  if (req.body !== undefined) parts.push("-H", shellQuote("Content-Type: application/json"), "--data-raw", shellQuote(req.body));
  return parts.join(" ");
}
