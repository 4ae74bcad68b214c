// Loads modules as Encore's parser does (tsparser/src/parser/module_loader.rs): an import resolves
// through the app's resolver, a file with a module extension is parsed (and must parse: swc's
// verdict, see swc-syntax.ts), anything else (JSON, .node) is not a module, and the generated
// ~encore/clients and ~encore/auth are empty modules whether they exist yet or not.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { NodeResolver, ResolveError } from "./node-resolve";
import type { SyntaxFailure } from "./swc-syntax";
import { UNIVERSE_TS } from "./universe";

/** A loaded module. Its syntax tree is TypeScript's, built when first asked for. */
export interface Module {
  id: number;
  /** The absolute file path, or a name for modules that are not files ("node:fs", "universe.ts"). */
  path: string;
  /** The specifier it was first imported by when that was not a relative path ("encore.dev/api"). */
  modulePath: string | null;
  readonly sf: ts.SourceFile;
}

/** module_loader.rs Error, with the text Encore's `msg()` gives it. */
export type LoadError =
  | { kind: "unresolved"; specifier: string; cause: string }
  | { kind: "parse"; failure: SyntaxFailure; file: string }
  | { kind: "read"; file: string };

/** Display of module_loader.rs Error (used in "import not found: {err}"). */
export function loadErrorDisplay(e: LoadError): string {
  if (e.kind === "unresolved") return `unable to resolve module ${e.specifier}`;
  return e.kind === "parse" ? "error when parsing module" : "unable to load file from filesystem";
}

/** `msg()` of module_loader.rs Error (what the import scan reports). */
export function loadErrorMessage(e: LoadError): string {
  if (e.kind === "unresolved") return `unable to resolve module ${e.specifier}: ${e.cause}`;
  return e.kind === "parse" ? e.failure.message : "unable to load file from filesystem";
}

/** module_loader.rs MODULE_EXTENSIONS. */
const MODULE_EXTENSIONS = new Set(["js", "ts", "mjs", "mts", "cjs", "cts", "jsx", "tsx"]);

interface LoaderOptions {
  /** A syntax tree already built for a file (the analyzer's program), to avoid parsing it twice. */
  sourceFile?: (file: string) => ts.SourceFile | undefined;
  /** swc's verdict on a file's syntax; null when it parses. */
  checkSyntax: (file: string, text: string) => SyntaxFailure | null;
}

export class ModuleLoader {
  private readonly byPath = new Map<string, Module>();
  private readonly resolver: NodeResolver;
  private readonly genRoot: string;
  private universeModule: Module | null = null;
  private readonly generated = new Map<string, Module>();

  constructor(
    root: string,
    private readonly opts: LoaderOptions,
  ) {
    this.resolver = new NodeResolver(root);
    this.genRoot = path.join(root, "encore.gen");
  }

  /** Every module loaded so far (loader.modules()). */
  modules(): Module[] {
    return [...this.byPath.values()];
  }

  /** module_loader.rs resolve_import: the module, null for a non-module file, or why it failed. */
  resolveImport(fromFile: string, specifier: string): Module | null | LoadError {
    if (specifier === "~encore/clients" || specifier === "~encore/auth") return this.generatedModule(specifier.slice("~encore/".length));
    let resolved;
    try {
      resolved = this.resolver.resolve(fromFile, specifier);
    } catch (err) {
      if (err instanceof ResolveError) return { kind: "unresolved", specifier, cause: err.message };
      throw err;
    }
    const modulePath = specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/") ? null : specifier;
    if ("custom" in resolved) return this.customModule(resolved.custom, modulePath);
    const file = resolved.file;
    const ext = path.extname(file).slice(1);
    if (!MODULE_EXTENSIONS.has(ext)) return null;
    const gen = path.relative(this.genRoot, file);
    if (!gen.startsWith("..") && !path.isAbsolute(gen)) {
      if (gen.startsWith(`clients${path.sep}`)) return this.generatedModule("clients");
      if (gen.startsWith(`auth${path.sep}`)) return this.generatedModule("auth");
    }
    return this.loadFile(file, modulePath);
  }

  /** load_fs_file: parses a file once and keeps it by path. */
  loadFile(file: string, modulePath: string | null): Module | LoadError {
    const known = this.byPath.get(file);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return { kind: "read", file };
    }
    const failure = this.opts.checkSyntax(file, text);
    if (failure !== null) return { kind: "parse", failure, file };
    return this.store(file, modulePath, () => this.opts.sourceFile?.(file) ?? parseTs(file, text));
  }

  /** The built-in declarations every module sees (universe.ts). */
  universe(): Module {
    this.universeModule ??= this.newModule("universe.ts", "__universe__", () => parseTs("universe.ts", UNIVERSE_TS));
    return this.universeModule;
  }

  private generatedModule(which: string): Module {
    let m = this.generated.get(which);
    if (m === undefined) {
      m = this.newModule(`encore.gen/${which}`, `encore.gen/${which}`, () => parseTs(`encore.gen/${which}`, ""));
      this.generated.set(which, m);
    }
    return m;
  }

  /** A module that is a name, not a file (a Node builtin): empty, as load_custom_file makes it. */
  private customModule(name: string, modulePath: string | null): Module {
    return this.byPath.get(name) ?? this.store(name, modulePath, () => parseTs(name, ""));
  }

  private store(file: string, modulePath: string | null, parse: () => ts.SourceFile): Module {
    const m = this.newModule(file, modulePath, parse);
    this.byPath.set(file, m);
    return m;
  }

  private nextId = 1;

  private newModule(file: string, modulePath: string | null, parse: () => ts.SourceFile): Module {
    let sf: ts.SourceFile | null = null;
    return {
      id: this.nextId++,
      path: file,
      modulePath,
      get sf() {
        sf ??= parse();
        return sf;
      },
    };
  }
}

/** Parses a module as TypeScript whatever its extension, as Encore parses every module with the TypeScript syntax. */
function parseTs(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}
