// Route conflicts as matchit 0.7.3 (the router Encore's parser inserts paths into) decides them,
// for paths already validated by respath.ts, where every `:param` and `*wildcard` is a whole
// segment. matchit renames params by position before inserting, so only their positions matter;
// wildcards keep their names; `!fallback` is inserted as literal text. Hence:
//   - the same route, even with params renamed, conflicts;
//   - a `:param` and a `*wildcard` at the same position after the same prefix conflict;
//   - two wildcards at the same position conflict, whatever their names;
//   - static and param segments at the same position coexist.
import type { Segment } from "./base/respath";

interface Node<T> {
  statics: Map<string, Node<T>>;
  param: Node<T> | null;
  wildcard: { name: string; value: T } | null;
  value: T | null;
}

function newNode<T>(): Node<T> {
  return { statics: new Map(), param: null, wildcard: null, value: null };
}

/** Any value stored in a subtree (for naming what a new route conflicts with). */
function anyValue<T>(node: Node<T>): T {
  if (node.value !== null) return node.value;
  if (node.wildcard !== null) return node.wildcard.value;
  for (const child of [...node.statics.values(), ...(node.param ? [node.param] : [])]) {
    const v = anyValue(child);
    if (v !== null) return v;
  }
  return null as T;
}

/** One matchit tree: insert returns the value it conflicts with, or null when inserted. */
export class RouteTree<T> {
  private readonly root = newNode<T>();

  insert(segments: Segment[], value: T): T | null {
    let node = this.root;
    for (const seg of segments) {
      if (seg.kind === "literal" || seg.kind === "fallback") {
        const key = seg.kind === "literal" ? seg.value : `!${seg.name}`;
        let next = node.statics.get(key);
        if (next === undefined) node.statics.set(key, (next = newNode()));
        node = next;
      } else if (seg.kind === "param") {
        if (node.wildcard !== null) return node.wildcard.value;
        node = node.param ??= newNode();
      } else {
        if (node.param !== null) return anyValue(node.param);
        if (node.wildcard !== null) return node.wildcard.value;
        node.wildcard = { name: seg.name, value };
        return null;
      }
    }
    if (node.value !== null) return node.value;
    node.value = value;
    return null;
  }
}
