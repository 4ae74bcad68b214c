// Request/response schemas from the app model, as text and as example JSON.

/** A type schema as TypeScript-like text. */
export function typeText(t) {
  switch (t.kind) {
    case "literal":
      return JSON.stringify(t.value);
    case "array":
      return `${typeText(t.elem)}[]`;
    case "object":
      return `{ ${t.fields.map((f) => `${f.name}${f.optional ? "?" : ""}: ${typeText(f.type)}`).join("; ")} }`;
    case "map":
      return `Record<string, ${typeText(t.value)}>`;
    case "union":
      return t.types.map(typeText).join(" | ");
    case "validated":
      return typeText(t.base);
    default:
      return t.kind;
  }
}

function example(t) {
  switch (t.kind) {
    case "string":
      return "";
    case "number":
    case "bigint":
    case "decimal":
      return 0;
    case "boolean":
      return false;
    case "date":
      return new Date().toISOString();
    case "literal":
      return t.value;
    case "array":
      return [];
    case "object":
      return Object.fromEntries(t.fields.filter((f) => !f.optional).map((f) => [f.wireName, example(f.type)]));
    case "map":
      return {};
    case "union":
      return example(t.types[0]);
    case "validated":
      return example(t.base);
    default:
      return null;
  }
}

const BODYLESS = new Set(["GET", "HEAD", "DELETE"]);

/** Where a request field travels for a method (Encore's rule: path, then query for GET/HEAD/DELETE, else body). */
export function fieldPlace(f, method) {
  if (f.location !== "default") return f.location;
  return BODYLESS.has(method) ? "query" : "body";
}

/** A starting path (with a query template) and JSON body for calling an endpoint with `method`. */
export function callTemplate(ep, method) {
  const fields = ep.request?.fields ?? [];
  const query = fields.filter((f) => fieldPlace(f, method) === "query").map((f) => `${encodeURIComponent(f.wireName)}=`);
  const body = fields.filter((f) => fieldPlace(f, method) === "body");
  const bodyObj = Object.fromEntries(body.filter((f) => !f.optional).map((f) => [f.wireName, example(f.type)]));
  return {
    path: ep.path + (query.length ? `?${query.join("&")}` : ""),
    body: body.length ? JSON.stringify(bodyObj, null, 2) : "",
  };
}
