// The narrow face of the type resolver: load the app's files as Encore's parser does, resolve a
// written type in one of them (TypeChecker::resolve_type), unwrap named types, and report errors
// with Encore's wording at a node. Nothing here asks TypeScript's checker. One instance serves one
// analysis; drop it afterwards and its modules go with it.
import type ts from "typescript";
import { type LoadError, type Module, ModuleLoader } from "./loader";
import type { Obj } from "./objects";
import { Ctx, underlyingOf } from "./resolve";
import { ResolveState, isLoadError } from "./state";
import { checkSyntax } from "./swc-syntax";
import type { Type } from "./typ";

/** Receives every error the resolver reports, at the node Encore names (or the current schema when it names none). */
type Reporter = (node: ts.Node, message: string) => void;

interface TypeSystemOptions {
  root: string;
  report: Reporter;
  /** Syntax trees already built for the app's files, so they are not parsed twice. */
  sourceFile?: (file: string) => ts.SourceFile | undefined;
}

export class TypeSystem {
  readonly loader: ModuleLoader;
  readonly state: ResolveState;
  /** Where errors Encore gives no position go: the schema being worked on. */
  private fallback: ts.Node | null = null;

  constructor(private readonly opts: TypeSystemOptions) {
    this.loader = new ModuleLoader(opts.root, { sourceFile: opts.sourceFile, checkSyntax });
    this.state = new ResolveState(this.loader, (node, message) => {
      const at = node ?? this.fallback;
      if (at !== null) opts.report(at, message);
    });
  }

  /** Loads one of the app's own files (the walker's load_fs_file), or says why swc refused it. */
  loadAppFile(file: string): Module | LoadError {
    return this.loader.loadFile(file, null);
  }

  /** TypeChecker::resolve_type: a written type, made concrete, in the module of the file it is written in. */
  resolve(node: ts.TypeNode): Type {
    return this.at(node, () => {
      const m = this.loader.loadFile(node.getSourceFile().fileName, null);
      if (isLoadError(m)) throw new Error(`analyzer: ${node.getSourceFile().fileName} was not loaded`);
      this.state.moduleNs(m);
      const ctx = new Ctx(this.state, m.id);
      return ctx.concrete(ctx.typ(node));
    });
  }

  /** Runs `fn` with `node` as the place for errors that have none. */
  at<T>(node: ts.Node, fn: () => T): T {
    const prev = this.fallback;
    this.fallback = node;
    try {
      return fn();
    } finally {
      this.fallback = prev;
    }
  }

  /** The schema being worked on: where errors Encore gives no position are reported. */
  current(): ts.Node {
    if (this.fallback === null) throw new Error("analyzer: no schema is being resolved");
    return this.fallback;
  }

  /** The underlying type of a named type, or the concrete type itself (Ctx::underlying in a fresh scope). */
  underlying(t: Type): Type {
    return t.t === "named" ? underlyingOf(this.state, t) : t;
  }

  /** A named object's own type, made concrete in its module (schema.rs named: resolve_obj_type, then concrete). */
  declaredType(obj: Obj): Type {
    const ctx = new Ctx(this.state, obj.module.id);
    return ctx.concrete(ctx.objType(obj));
  }
}
