// Where an import specifier leads, by the resolver Encore's parser is built with
// (tsparser/src/parser/parser.rs ParseContext::new): tsconfig `paths` first
// (tsparser/src/tsconfig.rs), then swc_ecma_loader's NodeModulesResolver from Encore's fork of swc
// (branch node-resolve-exports: resolvers/node.rs and resolvers/exports.rs) with the export
// conditions bun, deno and types added to Node's, then a `.d.ts` beside a resolved `.js` preferred
// (tsparser/src/runtimeresolve/node.rs). No `@types/*` fallback: a package that exists only as
// types does not resolve.
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

/** A resolved module: a file, or a name for what is not one (`node:fs`). */
type Resolved = { file: string } | { custom: string };

/** Why a specifier did not resolve, worded as the Rust error chain Encore prints. */
export class ResolveError extends Error {}

/** resolvers/node.rs EXTENSIONS. */
const EXTENSIONS = ["ts", "tsx", "js", "jsx", "json", "node"];
/** parser.rs: the fork's Node conditions plus the extra ones Encore passes. */
const CONDITIONS = new Set(["bun", "deno", "types", "node-addons", "node", "import", "require", "default"]);
const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("node:")));

const isFile = (p: string): boolean => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Rust's Path::extension: the text after the last dot of the file name, unless the name starts with it. */
function extensionOf(p: string): string | null {
  const name = path.basename(p);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? null : name.slice(dot + 1);
}

/** Rust's Path::set_extension. */
function withExtension(p: string, ext: string): string {
  const e = extensionOf(p);
  const stem = e === null ? p : p.slice(0, -(e.length + 1));
  return `${stem}.${ext}`;
}

/** resolve_utils.rs split_package_name: ("@scope/pkg", "sub/path"). */
function splitPackageName(target: string): [string, string] {
  const idx = target.indexOf("/");
  if (idx < 0) return [target, ""];
  if (target.startsWith("@")) {
    const rest = target.indexOf("/", idx + 1);
    return rest < 0 ? [target, ""] : [target.slice(0, rest), target.slice(rest + 1)];
  }
  return [target.slice(0, idx), target.slice(idx + 1)];
}

/** resolvers/exports.rs Subpath; maps are BTreeMaps there, so conditions are tried in sorted order. */
type Subpath = { target: string } | { conditions: [string, Subpath][] } | "exclude";

function parseSubpath(v: unknown): Subpath {
  if (v === null) return "exclude";
  if (typeof v === "string") return { target: v };
  if (typeof v === "object" && !Array.isArray(v))
    return { conditions: sortedEntries(v as Record<string, unknown>).map(([k, x]) => [k, parseSubpath(x)]) };
  // The fork's exports.rs has no array form: such a package.json fails to deserialize.
  throw new ResolveError("invalid type: expected string or map");
}

const sortedEntries = (o: Record<string, unknown>): [string, unknown][] =>
  Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The `exports` field as exports.rs reads it: subpaths when the first key starts with ".", else conditions for ".". */
function parseExports(v: unknown): [string, Subpath][] {
  if (typeof v === "string") return [[".", { target: v }]];
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new ResolveError("invalid type: expected string or map");
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return [];
  if (!entries[0][0].startsWith(".")) return [[".", parseSubpath(v)]];
  return sortedEntries(v as Record<string, unknown>).map(([k, x]) => [k, parseSubpath(x)]);
}

function matchSubpath(s: Subpath): { target: string } | "exclude" | null {
  if (s === "exclude" || "target" in s) return s;
  for (const [cond, sub] of s.conditions) if (CONDITIONS.has(cond)) return matchSubpath(sub);
  return null;
}

/** exports.rs resolve_import_path. */
function resolveExportPath(subpaths: [string, Subpath][], rel: string): string | null {
  let wildcard: [string, string] | null = null;
  for (const [candidate, sub] of subpaths) {
    let c = candidate;
    if (c === ".") {
      if (rel !== "") continue;
    } else {
      c = c.startsWith("./") ? c.slice(2) : c;
    }
    if (candidate === "." || c === rel) {
      const m = matchSubpath(sub);
      return m === null || m === "exclude" ? null : m.target;
    }
    const star = c.indexOf("*");
    if (star < 0) continue;
    const prefix = c.slice(0, star);
    const suffix = c.slice(star + 1);
    if (!(rel.startsWith(prefix) && rel.endsWith(suffix))) continue;
    const m = matchSubpath(sub);
    if (m === null) continue;
    if (m === "exclude") return null;
    wildcard ??= [m.target, rel.slice(prefix.length, rel.length - suffix.length)];
  }
  return wildcard === null ? null : wildcard[0].replaceAll("*", wildcard[1]);
}

interface PackageJson {
  main: string | null;
  module: string | null;
  exports: [string, Subpath][] | null;
}

/** Reads a package.json as the fork's serde struct does, failing where serde would. */
function readPackageJson(file: string): PackageJson {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (err) {
    throw new ResolveError(`failed to parse ${file}: ${(err as Error).message}`);
  }
  const str = (k: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw new ResolveError(`failed to parse ${file}: invalid type for ${k}`);
    return v;
  };
  const browser = raw.browser;
  if (browser !== undefined && browser !== null && typeof browser !== "string") {
    const ok =
      typeof browser === "object" &&
      !Array.isArray(browser) &&
      Object.values(browser).every((x) => typeof x === "string" || typeof x === "boolean");
    if (!ok) throw new ResolveError(`failed to parse ${file}: invalid type for browser`);
  }
  return {
    main: str("main"),
    module: str("module"),
    exports: raw.exports === undefined || raw.exports === null ? null : parseExports(raw.exports),
  };
}

/** tsconfig.rs TsConfigPathResolver: `compilerOptions.paths`, longest prefix first. */
class TsConfigPaths {
  private readonly entries: { key: [string, string | null]; values: [string, string | null][] }[];

  constructor(
    readonly base: string,
    paths: Record<string, string[]>,
  ) {
    const split = (s: string): [string, string | null] => {
      const i = s.indexOf("*");
      return i < 0 ? [s, null] : [s.slice(0, i), s.slice(i + 1)];
    };
    this.entries = Object.entries(paths)
      .map(([k, v]) => ({ key: split(k), values: v.map(split) }))
      .sort((a, b) => b.key[0].length - a.key[0].length);
  }

  /** The path value an import maps to, when one of its candidates exists. */
  resolve(specifier: string): string | null {
    for (const { key, values } of this.entries) {
      const [prefix, suffix] = key;
      if (suffix === null) {
        if (specifier !== prefix) continue;
        for (const [v, vs] of values) if (vs === null && fileCandidates(path.join(this.base, v)).some((c) => fs.existsSync(c))) return v;
        continue;
      }
      if (!(specifier.startsWith(prefix) && specifier.endsWith(suffix))) continue;
      const wild = specifier.slice(prefix.length, specifier.length - suffix.length);
      for (const [vp, vs] of values) {
        const rel = vs === null ? vp : `${vp}${wild}${vs}`;
        if (fileCandidates(path.join(this.base, rel)).some((c) => fs.existsSync(c))) return rel;
      }
    }
    return null;
  }
}

/** tsconfig.rs file_candidates. */
function fileCandidates(base: string): string[] {
  const ext = extensionOf(base);
  const list =
    ext === "js"
      ? ["ts", "tsx", "d.ts", "js", "jsx"]
      : ext === "mjs"
        ? ["mts", "d.mts", "mjs"]
        : ext === "cjs"
          ? ["cts", "d.cts", "cjs"]
          : ["ts", "tsx", "d.ts", "js", "jsx", "mts", "d.mts", "mjs", "cts", "d.cts", "cjs", ""];
  // With an extension, candidates are appended to it ("x.js" tries "x.js.ts"), as tsconfig.rs does.
  return list.map((c) => (c === "" ? base : ext !== null ? withExtension(base, `${ext}.${c}`) : `${base}.${c}`));
}

/** Strips // and /* comments outside strings (tsconfig.rs strip_jsonc_comments). */
function stripJsonComments(text: string): string {
  return text.replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ""));
}

/** The resolver of one app: tsconfig paths from `<root>/tsconfig.json`, then Node's rules as the fork has them. */
export class NodeResolver {
  private readonly tsconfig: TsConfigPaths | null;

  constructor(root: string) {
    const file = path.join(root, "tsconfig.json");
    let tsconfig: TsConfigPaths | null = null;
    if (fs.existsSync(file)) {
      const cfg = JSON.parse(stripJsonComments(fs.readFileSync(file, "utf8"))) as {
        compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> };
      };
      const opts = cfg.compilerOptions ?? {};
      tsconfig = new TsConfigPaths(opts.baseUrl !== undefined ? path.join(root, opts.baseUrl) : root, opts.paths ?? {});
    }
    this.tsconfig = tsconfig;
  }

  /** EncoreRuntimeResolver::resolve: throws ResolveError with the cause Encore would print. */
  resolve(fromFile: string, target: string): Resolved {
    const mapped = this.tsconfig?.resolve(target) ?? null;
    const result =
      mapped !== null && this.tsconfig !== null ? this.resolveNode(this.tsconfig.base, mapped) : this.resolveNode(fromFile, target);
    if ("file" in result) {
      const dts = dtsCounterpart(result.file);
      if (dts !== null && fs.existsSync(dts)) return { file: dts };
    }
    return result;
  }

  /** NodeModulesResolver::resolve (TargetEnv::Node, no aliases, symlinks preserved). */
  private resolveNode(base: string, target: string): Resolved {
    const baseDir = isFile(base) ? path.dirname(base) : base;
    if (target.startsWith("node:")) return { custom: target };
    if (NODE_BUILTINS.has(target)) return { custom: `node:${target}` };
    let found: string | null;
    if (path.isAbsolute(target)) found = this.fileOrDir(target);
    else if (target === "." || target === ".." || target.startsWith("./") || target.startsWith("../")) {
      found = this.fileOrDir(path.join(baseDir, target));
    } else {
      found = this.nodeModules(baseDir, target);
      if (found === null) throw new ResolveError("failed to get the node_modules path");
    }
    if (found === null) throw new ResolveError("index not found");
    return { file: path.normalize(found) };
  }

  /** `resolve_as_file(p).or_else(resolve_as_directory(p, true))`. */
  private fileOrDir(p: string): string | null {
    try {
      return this.asFile(p);
    } catch (err) {
      if (!(err instanceof ResolveError)) throw err;
      return this.asDirectory(p, true);
    }
  }

  /** resolve_as_file: the path itself, `.js` first when it has no extension, then each extension, then .js→.ts. */
  private asFile(p: string): string {
    const ext = extensionOf(p);
    if (ext !== null) {
      if (isFile(p)) return p;
    } else {
      if (isFile(`${p}.js`)) return `${p}.js`;
      if (isFile(p)) return p;
    }
    for (const e of EXTENSIONS) if (isFile(`${p}.${e}`)) return `${p}.${e}`;
    const swaps: Record<string, string[]> = { js: ["ts", "tsx"], jsx: ["ts", "tsx"], mjs: ["mts"], cjs: ["cts"] };
    for (const e of swaps[ext ?? ""] ?? []) if (isFile(withExtension(p, e))) return withExtension(p, e);
    throw new ResolveError(`file not found: ${p}`);
  }

  /** resolve_as_directory: package.json `module`, then `main`, then index.EXT. */
  private asDirectory(p: string, allowPackageEntry: boolean): string | null {
    const pkg = path.join(p, "package.json");
    if (allowPackageEntry && isFile(pkg)) {
      const json = readPackageJson(pkg);
      const entry = json.module ?? json.main;
      if (entry !== null) {
        const target = path.join(p, entry);
        let main: string | null;
        try {
          main = this.asFile(target);
        } catch (err) {
          if (!(err instanceof ResolveError)) throw err;
          main = this.asDirectory(target, false);
        }
        if (main !== null) return main;
      }
    }
    for (const e of EXTENSIONS) if (isFile(path.join(p, `index.${e}`))) return path.join(p, `index.${e}`);
    return null;
  }

  /** resolve_node_modules: each node_modules up from the importing file; `exports` wins where it exists. */
  private nodeModules(baseDir: string, target: string): string | null {
    for (let dir = path.resolve(baseDir); ; dir = path.dirname(dir)) {
      const nm = path.join(dir, "node_modules");
      if (isDir(nm)) {
        const [pkgName, rel] = splitPackageName(target);
        const found = this.inNodeModules(nm, pkgName, rel, target);
        if (found !== null) return found;
      }
      if (path.dirname(dir) === dir) return null;
    }
  }

  /** One node_modules directory: an `exports` field that does not export the subpath ends the search here. */
  private inNodeModules(nm: string, pkgName: string, rel: string, target: string): string | null {
    const viaExports = this.viaExports(path.join(nm, pkgName), rel);
    if (viaExports !== undefined) return viaExports;
    const file = this.orUndefined(() => this.asFile(path.join(nm, target)));
    if (file !== undefined) return file;
    return this.orUndefined(() => this.asDirectory(path.join(nm, target), true)) ?? null;
  }

  /** resolve_export: the target (unchecked), null when `exports` has no match, undefined when there is no usable `exports`. */
  private viaExports(pkgDir: string, rel: string): string | null | undefined {
    const pkg = path.join(pkgDir, "package.json");
    if (!isFile(pkg)) return undefined;
    let json: PackageJson;
    try {
      json = readPackageJson(pkg);
    } catch (err) {
      if (err instanceof ResolveError) return undefined;
      throw err;
    }
    if (json.exports === null) return undefined;
    const target = resolveExportPath(json.exports, rel);
    return target === null ? null : path.join(pkgDir, target);
  }

  /** `Result::ok()`: undefined for the resolver's own errors. */
  private orUndefined<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ResolveError) return undefined;
      throw err;
    }
  }
}

/** resolve_utils.rs dts_counterpart. */
function dtsCounterpart(file: string): string | null {
  const ext = extensionOf(file);
  const to = ext === "js" ? "d.ts" : ext === "mjs" ? "d.mts" : ext === "cjs" ? "d.cts" : null;
  return to === null ? null : withExtension(file, to);
}
