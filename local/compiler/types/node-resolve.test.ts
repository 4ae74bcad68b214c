// Import resolution as Encore's resolver does it (its swc fork's resolvers/node.rs and exports.rs,
// tsparser/src/runtimeresolve/node.rs, tsparser/src/tsconfig.rs), on packages laid out in a temp dir.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NodeResolver } from "./node-resolve";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "node-resolve-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(rel: string, text = ""): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

const pkg = (name: string, json: object): void => write(`node_modules/${name}/package.json`, JSON.stringify({ name, ...json }));
write("tsconfig.json", JSON.stringify({ compilerOptions: { paths: { "~gen/*": ["./gen/*"] } } }));
write("app/main.ts");
write("app/util.ts");
write("gen/clients/index.ts");
// Conditions are tried in sorted order: "default" comes before "import" and "node".
pkg("cond", { exports: { ".": { node: "./node.js", import: "./import.js", default: "./default.js" } } });
write("node_modules/cond/default.js");
// No "./sub" export: the package's files are not reachable some other way.
pkg("closed", { main: "./index.js", exports: { ".": "./index.js" } });
write("node_modules/closed/index.js");
write("node_modules/closed/sub.js");
// `module` wins over `main`; a .d.ts beside the .js is preferred.
pkg("entry", { main: "./main.js", module: "./module.js" });
write("node_modules/entry/module.js");
write("node_modules/entry/module.d.ts");
write("node_modules/entry/main.js");
// Only declarations under @types.
write("node_modules/@types/typesonly/index.d.ts", "export declare const x: number;");
// An array in exports does not deserialize in the fork's exports.rs, and the whole package.json with it.
pkg("arrays", { main: "./main.js", exports: { ".": ["./a.js"] } });
write("node_modules/arrays/main.js");

const resolver = new NodeResolver(root);
const from = path.join(root, "app/main.ts");
const resolve = (spec: string): string => {
  const r = resolver.resolve(from, spec);
  return "file" in r ? path.relative(root, r.file) : r.custom;
};

describe("Encore's module resolution", () => {
  it("resolves relative imports by extension and directories by index", () => {
    expect(resolve("./util")).toBe("app/util.ts");
    expect(resolve("../gen/clients")).toBe("gen/clients/index.ts");
  });

  it("tries export conditions in sorted order, with bun, deno and types added to Node's", () => {
    expect(resolve("cond")).toBe("node_modules/cond/default.js");
  });

  it("does not fall back to a package's files when its exports lack the subpath", () => {
    expect(() => resolve("closed/sub")).toThrow("failed to get the node_modules path");
  });

  it("prefers module to main, and a .d.ts beside the .js", () => {
    expect(resolve("entry")).toBe("node_modules/entry/module.d.ts");
  });

  it("cannot read a package.json whose exports hold an array", () => {
    expect(() => resolve("arrays")).toThrow("failed to get the node_modules path");
  });

  it("has no @types fallback", () => {
    expect(() => resolve("typesonly")).toThrow("failed to get the node_modules path");
  });

  it("names Node's builtins instead of resolving them, and reports a missing relative file", () => {
    expect(resolve("fs")).toBe("node:fs");
    expect(resolve("node:path")).toBe("node:path");
    expect(() => resolve("./missing")).toThrow("index not found");
  });

  it("maps tsconfig paths first", () => {
    expect(resolve("~gen/clients")).toBe("gen/clients/index.ts");
  });
});
