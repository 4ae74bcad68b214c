// The layout of local/ (README "Layout"): every import runs down the floors, never back up, and no
// folder or file imports itself round a circle. Read from the code with TypeScript's parser.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const localDir = path.dirname(fileURLToPath(import.meta.url));

/** The top-level folders of local/, lowest first: a file imports only from its own floor or a lower one. The files at local/'s root (the doors, the CLI) stand above them all. */
const FLOORS = ["model", "compiler", "codegen", "runtime", "ops", "devtools", "hooks"];

/** Not code of the runtime: the fixtures' apps and corpora. */
const SKIPPED = new Set(["__tests__", "node_modules"]);

/** Source files of local/, tests left out (nothing imports a test, so it can neither close a circle nor be imported from above). */
function sourceFiles(dir = localDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIPPED.has(e.name) ? [] : sourceFiles(p);
    return /\.(ts|mts|mjs|js)$/.test(e.name) && !/\.test\.ts$|\.d\.mts$/.test(e.name) ? [p] : [];
  });
}

interface Import {
  from: string;
  to: string;
  /** `import type` / `export type`: erased by the compiler, so it loads nothing. */
  typeOnly: boolean;
}

const EXTENSIONS = ["", ".ts", ".mts", ".mjs", ".js", "/index.ts", "/index.mjs", "/index.js"];

/** The file a relative specifier names. */
function resolveRelative(fromFile: string, specifier: string): string {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const ext of EXTENSIONS) if (fs.existsSync(base + ext) && fs.statSync(base + ext).isFile()) return base + ext;
  throw new Error(`${path.relative(localDir, fromFile)}: cannot resolve ${specifier}`);
}

/** Every import of a file into local/: declarations, re-exports and import() calls. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean): void => {
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith(".")) {
      const to = resolveRelative(file, specifier.text);
      if (!path.relative(localDir, to).startsWith("..")) found.push({ from: file, to, typeOnly });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !!clause &&
        !clause.name &&
        !!named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The floor of a file: its top-level folder's place in FLOORS, or above them all for local/'s own files. */
function floorOf(file: string): number {
  const [top, ...rest] = path.relative(localDir, file).split(path.sep);
  if (rest.length === 0) return FLOORS.length;
  const floor = FLOORS.indexOf(top);
  if (floor < 0) throw new Error(`local/${top}/ is on no floor: place it in FLOORS (and in the README's layout)`);
  return floor;
}

/** The circles of a graph (Tarjan's strongly connected components of more than one node, or a node pointing at itself). */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) connect(v);
  return found;
}

function graph(imports: Import[], node: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [a, b] = [node(i.from), node(i.to)];
    if (!edges.has(a)) edges.set(a, new Set());
    if (a !== b) edges.get(a)!.add(b);
  }
  return edges;
}

const rel = (file: string): string => path.relative(localDir, file);
const imports = sourceFiles().flatMap(importsOf);

describe("the layout of local/", () => {
  test("reads a sound graph", () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.some((i) => rel(i.from) === "runtime/napi.ts" && rel(i.to) === "runtime/runtime.ts")).toBe(true);
  });

  test("no import runs back up a floor", () => {
    const upward = imports.filter((i) => floorOf(i.to) > floorOf(i.from)).map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
    expect(upward).toEqual([]);
  });

  test("no circle of folders", () => {
    // A folder's files may import a subfolder's, or the reverse, never both: a parent is the wiring of its children.
    expect(circles(graph(imports, (f) => path.dirname(rel(f))))).toEqual([]);
  });

  test("no circle of files that load each other", () => {
    expect(
      circles(
        graph(
          imports.filter((i) => !i.typeOnly),
          rel,
        ),
      ),
    ).toEqual([]);
  });

  test("finds a circle and an upward import when there is one", () => {
    const fake = (from: string, to: string): Import => ({ from: path.join(localDir, from), to: path.join(localDir, to), typeOnly: false });
    const loop = [fake("runtime/a.ts", "runtime/b/c.ts"), fake("runtime/b/c.ts", "runtime/a.ts")];
    expect(circles(graph(loop, (f) => path.dirname(rel(f))))).toEqual([["runtime", "runtime/b"]]);
    const up = fake("model/x.ts", "runtime/y.ts");
    expect(floorOf(up.to) > floorOf(up.from)).toBe(true);
  });
});
