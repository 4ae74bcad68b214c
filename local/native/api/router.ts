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

const isFallback = (segments: Segment[]) => segments[segments.length - 1]?.kind === "fallback";

export class Router<T> {
  /** Fallback routes are tried only when no other route matches, so they are kept apart. */
  private readonly main: Route<T>[] = [];
  private readonly fallbacks: Route<T>[] = [];

  add(path: string, methods: string[], value: T): void {
    const segments = parse(path);
    (isFallback(segments) ? this.fallbacks : this.main).push({ segments, methods: new Set(methods), value });
  }

  /**
   * The best route for method+path; "method" when only other methods match; null when none.
   * As Encore's gateway: the main routes first (exactly, then as the trailing-slash twin Encore
   * registers for each route), then the fallback routes.
   */
  find(method: string, rawPath: string): Match<T> | "method" | null {
    const parts = rawPath.split("/");
    parts.shift();
    try {
      for (let i = 0; i < parts.length; i++) parts[i] = decodeURIComponent(parts[i]);
    } catch {
      return null;
    }
    const found = best(this.main, parts, method);
    if (found !== null) return found;
    if (parts.length > 1 && parts[parts.length - 1] === "") {
      const twin = best(this.main, parts.slice(0, -1), method);
      if (twin !== null) return twin;
    }
    return best(this.fallbacks, parts, method);
  }
}

/**
 * Like matchit: the most specific matching path, then the method among routes sharing that path (the
 * first added). One pass, as every request is routed.
 */
function best<T>(routes: Route<T>[], parts: string[], method: string): Match<T> | "method" | null {
  let shape: Segment[] | null = null;
  let hit: Match<T> | null = null;
  for (const r of routes) {
    const params = match(r.segments, parts);
    if (params === null) continue;
    const order = shape === null ? -1 : compare(r.segments, shape);
    if (order > 0) continue;
    if (order < 0) {
      shape = r.segments;
      hit = null;
    }
    // GET /shorten is "no route for method", not /:code with code "shorten".
    if (hit === null && r.methods.has(method)) hit = { value: r.value, params };
  }
  if (shape === null) return null;
  return hit ?? "method";
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
