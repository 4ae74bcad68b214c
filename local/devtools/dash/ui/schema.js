// Request/response schemas from the app model, as TypeScript-like text.

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
