// Matches request paths to endpoints like Encore's gateway (runtimes/core/src/api/gateway/router.rs,
// paths.rs): static segments win over ":param", which wins over "*wildcard"; "!fallback" routes
// only when nothing else matches; a trailing slash is tolerated except where it is a wildcard's.
// A path that matches under another method is "no route for method".
import { parsePath, type Segment } from "../../appmodel/respath";

interface Route<T> {
  segments: Segment[];
  methods: Set<string>;
  value: T;
}

export interface Match<T> {
  value: T;
  params: Record<string, string>;
}

/** The segments of an endpoint path, which the app model has already checked. */
function parse(path: string): Segment[] {
  const parsed = parsePath(path);
  if ("error" in parsed) throw new Error(`invalid endpoint path ${JSON.stringify(path)}: ${parsed.error}`);
  return parsed.segments;
}

const RANK = { literal: 0, param: 1, wildcard: 2, fallback: 3 } as const;

export class Router<T> {
  private routes: Route<T>[] = [];

  add(path: string, methods: string[], value: T): void {
    this.routes.push({ segments: parse(path), methods: new Set(methods), value });
  }

  /**
   * The best route for method+path; "method" when only other methods match; null when none.
   * As Encore's gateway: the main routes first (exactly, then as the trailing-slash twin Encore
   * registers for each route), then the fallback routes.
   */
  find(method: string, rawPath: string): Match<T> | "method" | null {
    let parts: string[];
    try {
      parts = rawPath
        .split("/")
        .slice(1)
        .map((p) => decodeURIComponent(p));
    } catch {
      return null;
    }
    const twin = parts.length > 1 && parts[parts.length - 1] === "" ? parts.slice(0, -1) : null;
    const isFallback = (r: Route<T>) => r.segments[r.segments.length - 1]?.kind === "fallback";
    const main = this.routes.filter((r) => !isFallback(r));
    for (const p of twin ? [parts, twin] : [parts]) {
      const found = best(main, p, method);
      if (found !== null) return found;
    }
    return best(this.routes.filter(isFallback), parts, method);
  }
}

/** Like matchit: the most specific matching path, then the method among routes sharing that path. */
function best<T>(routes: Route<T>[], parts: string[], method: string): Match<T> | "method" | null {
  const candidates = routes
    .map((r) => ({ r, params: match(r.segments, parts) }))
    .filter((c): c is { r: Route<T>; params: Record<string, string> } => c.params !== null)
    .sort((a, b) => compare(a.r.segments, b.r.segments));
  if (candidates.length === 0) return null;
  // GET /shorten is "no route for method", not /:code with code "shorten".
  const same = candidates.filter((c) => compare(c.r.segments, candidates[0].r.segments) === 0);
  const hit = same.find((c) => c.r.methods.has(method));
  return hit ? { value: hit.r.value, params: hit.params } : "method";
}

function match(segments: Segment[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (i >= parts.length) return null;
    // Encore registers "/prefix/" and "/prefix/*_": the prefix's slash is required, the rest may be empty.
    if (seg.kind === "wildcard" || seg.kind === "fallback") {
      params[seg.name] = parts.slice(i).join("/");
      return params;
    }
    if (seg.kind === "literal") {
      if (seg.value !== parts[i]) return null;
    } else {
      if (parts[i] === "") return null;
      params[seg.name] = parts[i];
    }
  }
  return segments.length === parts.length ? params : null;
}

/** Orders candidates segment by segment: the more specific segment first; 0 for the same path shape. */
function compare(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const ra = a[i] ? RANK[a[i].kind] : -1;
    const rb = b[i] ? RANK[b[i].kind] : -1;
    if (ra !== rb) return ra - rb;
  }
  return 0;
}
