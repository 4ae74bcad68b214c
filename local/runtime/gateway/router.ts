// Matches request paths to endpoints as Encore's gateway does (runtimes/core/src/api/gateway/router.rs):
// every endpoint, private ones too, is registered under the paths runtimes/core/src/api/paths.rs
// computes (":param" as ":_", "*wildcard" and "!fallback" as "/prefix/" plus "/prefix/*_", and a
// trailing-slash twin of each route that has none), in two matchit trees, fallback routes apart; a
// path is looked up in the main tree and then in the fallback tree. A path that matches only under
// other methods is "no route for method".
import { parsePath, type Segment } from "../../compiler/base/respath";
import { RadixTree } from "./radix-tree";

export interface Match<T> {
  value: T;
  params: Record<string, string>;
}

/** What one registered path leads to for one method: the endpoint and its parameters' names in order. */
interface Target<T> {
  value: T;
  names: string[];
}

/** The registered paths of one endpoint path, as paths.rs computes them (before the trailing-slash twins). */
function encorePaths(segments: Segment[]): string[] {
  const paths: string[] = [];
  let path = "";
  for (const seg of segments) {
    if (seg.kind === "literal") path += `/${seg.value}`;
    else if (seg.kind === "param") path += "/:_";
    else {
      // matchit's catch-all does not match the empty rest, so the bare prefix is registered too.
      paths.push(`${path}/`);
      path += "/*_";
    }
  }
  paths.push(path);
  return paths;
}

/** paths.rs adds "<route>/" for each route that is not "/", has no wildcard and no trailing slash, unless `taken`. */
function withTrailingSlashTwins(paths: string[], taken: Set<string>): string[] {
  const twins = paths.filter((p) => p !== "/" && !p.includes("/*") && !p.endsWith("/") && !taken.has(`${p}/`));
  return [...paths, ...twins.map((p) => `${p}/`)];
}

/** One tree of routes (main or fallback): each registered path, its methods and their targets. */
class RouteSet<T> {
  private readonly endpoints: { paths: string[]; methods: string[]; target: Target<T> }[] = [];
  private tree: RadixTree<Map<string, Target<T>>> | null = null;

  add(paths: string[], methods: string[], target: Target<T>): void {
    this.endpoints.push({ paths, methods, target });
    this.tree = null;
  }

  /** The targets by method of the route `path` matches, with its raw wildcard values; null when none. */
  lookup(path: string): { targets: Map<string, Target<T>>; params: string[] } | null {
    const found = (this.tree ??= this.build()).at(path);
    return found && { targets: found.value, params: found.params };
  }

  /** Builds the tree once every route is known: the trailing-slash twins depend on all of them. */
  private build(): RadixTree<Map<string, Target<T>>> {
    const byPath = new Map<string, Map<string, Target<T>>>();
    const all = new Set(this.endpoints.flatMap((e) => e.paths));
    for (const { paths, methods, target } of this.endpoints) {
      for (const path of withTrailingSlashTwins(paths, all)) {
        let targets = byPath.get(path);
        if (targets === undefined) byPath.set(path, (targets = new Map()));
        // router.rs: a method registered twice on one path keeps the first ("tried to register same route twice").
        for (const method of methods) if (!targets.has(method)) targets.set(method, target);
      }
    }
    const tree = new RadixTree<Map<string, Target<T>>>();
    for (const [path, targets] of byPath) tree.insert(path, targets);
    return tree;
  }
}

export class Router<T> {
  private readonly main = new RouteSet<T>();
  private readonly fallback = new RouteSet<T>();

  /** Registers an endpoint path (as the app model has it, e.g. "/:code/stats") for `methods`. */
  add(path: string, methods: string[], value: T): void {
    const parsed = parsePath(path);
    if ("error" in parsed) throw new Error(`invalid endpoint path ${JSON.stringify(path)}: ${parsed.error}`);
    const segments = parsed.segments;
    const names = segments.flatMap((s) => (s.kind === "literal" ? [] : [s.name]));
    const set = segments.at(-1)?.kind === "fallback" ? this.fallback : this.main;
    set.add(encorePaths(segments), methods, { value, names });
  }

  /** The endpoint for method+path with its decoded parameters; "method" when only other methods match; null when none. */
  find(method: string, rawPath: string): Match<T> | "method" | null {
    let pathMatched = false;
    for (const set of [this.main, this.fallback]) {
      const found = set.lookup(rawPath);
      if (found === null) continue;
      pathMatched = true;
      const target = found.targets.get(method);
      if (target === undefined) continue;
      const params: Record<string, string> = {};
      try {
        // The bare prefix of a wildcard route matches with the wildcard empty.
        target.names.forEach((name, i) => (params[name] = decodeURIComponent(found.params[i] ?? "")));
      } catch {
        return null;
      }
      return { value: target.value, params };
    }
    return pathMatched ? "method" : null;
  }
}
