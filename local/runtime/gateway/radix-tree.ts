// The route tree of Encore's gateway: matchit 0.7.3 (runtimes/core/Cargo.toml), whose lookup differs
// from "most specific route wins". Routes are byte prefixes split where they diverge; a lookup walks
// static children first and backtracks to a skipped ":param" sibling only in some places. So with
// `/:_` and `/ui/` registered, `/ui` and `/u/` find nothing, although `/:_` and `/:_/` would take
// them. Written from matchit's src/tree.rs at v0.7.3 (insert, insert_child, at), behaviour for
// behaviour; node priorities, which only order children, are left out.

const enum Kind {
  Static,
  Param,
  CatchAll,
}

interface Node<T> {
  prefix: string;
  kind: Kind;
  /** The last child is a ":param" or "*catchAll" node. */
  wildChild: boolean;
  /** The first character of each static child's prefix, in the order of `children`. */
  indices: string;
  children: Node<T>[];
  value: T | undefined;
}

function node<T>(init: Partial<Node<T>> = {}): Node<T> {
  return { prefix: "", kind: Kind.Static, wildChild: false, indices: "", children: [], value: undefined, ...init };
}

/** Adds a child, keeping the wildcard child last; returns it. */
function addChild<T>(parent: Node<T>, child: Node<T>): Node<T> {
  if (parent.wildChild && parent.children.length > 0) parent.children.splice(parent.children.length - 1, 0, child);
  else parent.children.push(child);
  return child;
}

/** Where a lookup stands: the rest of the path, the node it reached, its params and the wildcards it passed over. */
interface Cursor<T> {
  path: string;
  node: Node<T>;
  params: string[];
  backtracking: boolean;
  skipped: { path: string; node: Node<T>; params: number }[];
}

/**
 * Goes back to the latest wildcard passed over whose path ends with the rest of this one; false when
 * there is none. A module function, not a closure in `at`: tsx names every named closure with
 * defineProperty as it is made, which cost about 1 % of a resolve's CPU.
 */
function backtrack<T>(c: Cursor<T>): boolean {
  for (let s = c.skipped.pop(); s !== undefined; s = c.skipped.pop()) {
    if (!s.path.endsWith(c.path)) continue;
    c.path = s.path;
    c.node = s.node;
    c.params.length = s.params;
    c.backtracking = true;
    return true;
  }
  return false;
}

/** The first ":name" or "*name" in `path` (up to the next "/") and where it starts; null when none. */
function findWildcard(path: string): { name: string; at: number } | null {
  for (let at = 0; at < path.length; at++) {
    if (path[at] !== ":" && path[at] !== "*") continue;
    let end = at + 1;
    while (end < path.length && path[end] !== "/") {
      if (path[end] === ":" || path[end] === "*") throw new Error(`only one wildcard per path segment is allowed: ${path}`);
      end++;
    }
    if (end - at < 2) throw new Error(`wildcards must be named with a non-empty name: ${path}`);
    return { name: path.slice(at, end), at };
  }
  return null;
}

export interface TreeMatch<T> {
  value: T;
  /** The values of the route's wildcards, in order, as they appear in the path (not decoded). */
  params: string[];
}

export class RadixTree<T> {
  private readonly root = node<T>();

  /** Registers `route` (e.g. "/:_/stats", "/ui/*_"); throws on a conflict, as matchit's insert fails. */
  insert(route: string, value: T): void {
    let current = this.root;
    let prefix = route;
    if (current.prefix === "" && current.children.length === 0) {
      this.insertChild(current, prefix, value);
      return;
    }
    for (;;) {
      const max = Math.min(prefix.length, current.prefix.length);
      let common = 0;
      while (common < max && prefix[common] === current.prefix[common]) common++;
      // The route diverges inside this node's prefix: split the node there.
      if (common < current.prefix.length) {
        const rest = node<T>({
          prefix: current.prefix.slice(common),
          children: current.children,
          wildChild: current.wildChild,
          indices: current.indices,
          value: current.value,
        });
        current.children = [rest];
        current.indices = current.prefix[common];
        current.prefix = prefix.slice(0, common);
        current.wildChild = false;
        current.value = undefined;
      }
      if (prefix.length === common) {
        if (current.value !== undefined) throw new Error(`route conflicts with an existing route: ${route}`);
        current.value = value;
        return;
      }
      prefix = prefix.slice(common);
      const next = prefix[0];
      // The "/" after a parameter continues in its only child.
      if (current.kind === Kind.Param && next === "/" && current.children.length === 1) {
        current = current.children[0];
        continue;
      }
      const index = current.indices.indexOf(next);
      if (index >= 0) {
        current = current.children[index];
        continue;
      }
      if (next !== ":" && next !== "*" && current.kind !== Kind.CatchAll) {
        current.indices += next;
        this.insertChild(addChild(current, node<T>()), prefix, value);
        return;
      }
      if (current.wildChild) {
        current = current.children[current.children.length - 1];
        const clash =
          !prefix.startsWith(current.prefix) ||
          current.kind === Kind.CatchAll ||
          (current.prefix.length < prefix.length && prefix[current.prefix.length] !== "/");
        if (clash) throw new Error(`route conflicts with an existing wildcard route: ${route}`);
        continue;
      }
      this.insertChild(current, prefix, value);
      return;
    }
  }

  /** Fills `start` (an empty or fresh node) with `prefix`, adding wildcard nodes as the route has them. */
  private insertChild(start: Node<T>, prefix: string, value: T): void {
    let current = start;
    for (;;) {
      const wildcard = findWildcard(prefix);
      if (wildcard === null) {
        current.prefix = prefix;
        current.value = value;
        return;
      }
      if (
        wildcard.name[0] === "*" &&
        (wildcard.at + wildcard.name.length !== prefix.length || (wildcard.at > 0 && prefix[wildcard.at - 1] !== "/"))
      ) {
        throw new Error(`a catch-all must be a whole segment at the end of the route: ${prefix}`);
      }
      if (wildcard.at > 0) {
        current.prefix = prefix.slice(0, wildcard.at);
        prefix = prefix.slice(wildcard.at);
      }
      if (wildcard.name[0] === "*") {
        addChild(current, node<T>({ prefix, kind: Kind.CatchAll, value }));
        current.wildChild = true;
        return;
      }
      const param = addChild(current, node<T>({ prefix: wildcard.name, kind: Kind.Param }));
      current.wildChild = true;
      current = param;
      if (wildcard.name.length === prefix.length) {
        current.value = value;
        return;
      }
      prefix = prefix.slice(wildcard.name.length);
      current = addChild(current, node<T>());
    }
  }

  /**
   * The route matching `path`, or null. Static children are tried before a wildcard sibling; a
   * wildcard skipped on the way is tried again only when the rest of the path is not exactly "/",
   * and a path that would match with one slash more or less matches nothing (matchit's trailing-slash
   * errors), which is why Encore registers both forms of each route.
   */
  at(fullPath: string): TreeMatch<T> | null {
    const c: Cursor<T> = { path: fullPath, node: this.root, params: [], backtracking: false, skipped: [] };
    for (;;) {
      if (c.path.length > c.node.prefix.length && c.path.startsWith(c.node.prefix)) {
        const consumed = c.path;
        c.path = c.path.slice(c.node.prefix.length);
        if (!c.backtracking) {
          const index = c.node.indices.indexOf(c.path[0]);
          if (index >= 0) {
            if (c.node.wildChild) c.skipped.push({ path: consumed, node: c.node, params: c.params.length });
            if (c.path === "/" && c.node.children[index].prefix !== "/" && c.node.value !== undefined) return null;
            c.node = c.node.children[index];
            continue;
          }
        }
        if (!c.node.wildChild) {
          if (c.path === "/" && c.node.value !== undefined) return null;
          if (c.path !== "/" && backtrack(c)) continue;
          return null;
        }
        c.node = c.node.children[c.node.children.length - 1];
        if (c.node.kind === Kind.CatchAll) {
          if (c.node.value === undefined) return null;
          c.params.push(c.path);
          return { value: c.node.value, params: c.params };
        }
        const slash = c.path.indexOf("/");
        if (slash >= 0) {
          if (c.node.children.length === 1) {
            const child = c.node.children[0];
            if (c.path.length === slash + 1 && child.prefix !== "/" && c.node.value !== undefined) return null;
            c.params.push(c.path.slice(0, slash));
            c.path = c.path.slice(slash);
            c.node = child;
            c.backtracking = false;
            continue;
          }
          if (c.path.length === slash + 1) return null;
          if (c.path !== "/" && backtrack(c)) continue;
          return null;
        }
        c.params.push(c.path);
        if (c.node.value !== undefined) return { value: c.node.value, params: c.params };
        if (c.node.children.length === 1) {
          const child = c.node.children[0];
          if ((child.prefix === "/" && child.value !== undefined) || (child.prefix === "" && child.indices === "/")) return null;
          if (c.path !== "/" && backtrack(c)) continue;
        }
        return null;
      }
      if (c.path === c.node.prefix) {
        if (c.node.value !== undefined) return { value: c.node.value, params: c.params };
        if (c.path !== "/" && backtrack(c)) continue;
        return null;
      }
      // One slash short of a route ("/ui" for "/ui/"): matchit's missing-trailing-slash error, no backtracking.
      if (c.node.value !== undefined && c.node.prefix === `${c.path}/`) return null;
      if (c.path !== "/" && backtrack(c)) continue;
      return null;
    }
  }
}
