// matchit 0.7.3 conflict semantics for the paths Encore accepts: Encore's parser inserts each service's
// paths into one matchit tree per method and reports a conflict as a compile error (tsparser/src/app/mod.rs).
import { describe, expect, it } from "vitest";
import { parsePath } from "./base/respath";
import { RouteTree } from "./route-conflicts";

/** Inserts paths in order; returns the index each one conflicts with (null = inserted). */
function insertAll(paths: string[]): (number | null)[] {
  const tree = new RouteTree<number>();
  return paths.map((p, i) => {
    const parsed = parsePath(p);
    if ("error" in parsed) throw new Error(parsed.error);
    return tree.insert(parsed.segments, i);
  });
}

describe("RouteTree", () => {
  it("accepts the app's GET routes together", () => {
    expect(insertAll(["/:code", "/:code/stats", "/analytics/daily", "/me/urls", "/", "/r/:code"])).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("lets static and param segments coexist at the same position", () => {
    expect(insertAll(["/items/:id", "/items/featured", "/items/:id/stats"])).toEqual([null, null, null]);
  });

  it("lets params named differently at different depths coexist", () => {
    expect(insertAll(["/:code", "/:id/stats"])).toEqual([null, null]);
  });

  it("rejects the same route with a renamed param", () => {
    expect(insertAll(["/urls/:id", "/urls/:code"])).toEqual([null, 0]);
  });

  it("rejects exact duplicates", () => {
    expect(insertAll(["/a/b", "/a/b"])).toEqual([null, 0]);
  });

  it("rejects a param and a wildcard at the same position, in either order", () => {
    expect(insertAll(["/:code", "/*rest"])).toEqual([null, 0]);
    expect(insertAll(["/*rest", "/:code"])).toEqual([null, 0]);
    expect(insertAll(["/:code/stats", "/*rest"])).toEqual([null, 0]);
  });

  it("rejects two wildcards at the same position whatever their names", () => {
    expect(insertAll(["/files/*path", "/files/*rest"])).toEqual([null, 0]);
  });

  it("treats fallbacks as literal text, so they never conflict with params", () => {
    expect(insertAll(["/:code", "/!fallback"])).toEqual([null, null]);
  });
});
