// Endpoint path syntax, as Encore's parser checks it (tsparser/src/parser/respath.rs).

export type Segment =
  | { kind: "literal"; value: string }
  | { kind: "param"; name: string }
  | { kind: "wildcard"; name: string }
  | { kind: "fallback"; name: string };

/** Parses an endpoint path; returns Encore's error message for a malformed one. */
export function parsePath(path: string): { segments: Segment[] } | { error: string } {
  if (path === "") return { error: "empty path" };
  if (!path.startsWith("/")) return { error: "path must start with '/'" };
  // Encore resolves the path against a dummy base URL and rejects anything that escapes it.
  if (path.startsWith("//")) return { error: "path cannot contain url authority" };
  if (path.includes("?")) return { error: "path cannot contain query parameters (the '?' character)" };
  if (path.includes("#")) return { error: "path cannot contain url fragment (the '#' character)" };

  const segments: Segment[] = path
    .slice(1)
    .split("/")
    .map((val): Segment => {
      if (val.startsWith(":")) return { kind: "param", name: val.slice(1) };
      if (val.startsWith("*")) return { kind: "wildcard", name: val.slice(1) };
      if (val.startsWith("!")) return { kind: "fallback", name: val.slice(1) };
      return { kind: "literal", value: val };
    });

  for (const [idx, seg] of segments.entries()) {
    const last = idx === segments.length - 1;
    if (seg.kind === "literal" && seg.value === "" && segments.length > 1) {
      return { error: "path cannot contain empty path segment" };
    }
    if ((seg.kind === "param" || seg.kind === "wildcard") && seg.name === "") {
      return { error: "path parameters must have a name" };
    }
    if (seg.kind === "wildcard" && !last) return { error: "wildcard segment must be at the end of the path" };
    if (seg.kind === "fallback" && !last) return { error: "fallback segment must be at the end of the path" };
  }
  return { segments };
}
