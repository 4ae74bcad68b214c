// The resolver's shared state (object.rs ResolveState): every loaded module's namespace, object
// identity, name lookup (the module, its imports, then the universe) and import resolution.
import type ts from "typescript";
import { type LoadError, type Module, type ModuleLoader, loadErrorDisplay } from "./loader";
import { type ImportedName, type ModuleNs, NsBuilder, type NsData, type Obj, type ObjKind } from "./objects";

/** Where an error goes: a node, or none (Encore's DUMMY_SP and span-less errors). */
type ErrorSink = (node: ts.Node | null, message: string) => void;

export class ResolveState {
  private readonly moduleObjects = new Map<number, Obj>();
  private universeNs: ModuleNs | null = null;
  private nextId = 1;

  constructor(
    readonly loader: ModuleLoader,
    readonly report: ErrorSink,
  ) {}

  /** get_or_init_module: the namespace of a module, built once. */
  moduleNs(module: Module): ModuleNs {
    const known = this.lookupModule(module.id);
    if (known !== null) return known;
    const newObj = (name: string | null, node: ts.Node, kind: ObjKind): Obj => ({
      id: this.nextId++,
      name,
      kind,
      module,
      node,
      state: { s: "not-started" },
    });
    const data = new NsBuilder(newObj, this.report).build(module.sf.statements);
    const ns: ModuleNs = { base: module, data };
    this.moduleObjects.set(module.id, newObj(null, module.sf, { k: "module", ns }));
    return ns;
  }

  lookupModule(id: number): ModuleNs | null {
    const obj = this.moduleObjects.get(id);
    return obj !== undefined && obj.kind.k === "module" ? obj.kind.ns : null;
  }

  private universe(): ModuleNs {
    this.universeNs ??= this.moduleNs(this.loader.universe());
    return this.universeNs;
  }

  isUniverse(moduleId: number): boolean {
    return this.universe().base.id === moduleId;
  }

  /** Whether a module was imported by exactly this specifier ("encore.dev/api"). */
  isModulePath(moduleId: number, specifier: string): boolean {
    return this.lookupModule(moduleId)?.base.modulePath === specifier;
  }

  /** resolve_module_ident: a top-level name, else an import, else a universe export. */
  resolveIdent(moduleId: number, name: string): Obj | null {
    const ns = this.lookupModule(moduleId);
    if (ns === null) return null;
    const top = ns.data.topLevel.get(name);
    if (top !== undefined) return top;
    const imp = ns.data.imports.get(name);
    if (imp !== undefined) return this.resolveImport(ns, imp);
    return this.universe().data.namedExports.get(name) ?? null;
  }

  /** resolve_module_import: the namespace an import path leads to, silently null when it leads nowhere. */
  moduleImport(fromPath: string, importPath: string): ModuleNs | null {
    const m = this.loader.resolveImport(fromPath, importPath);
    return m === null || isLoadError(m) ? null : this.moduleNs(m);
  }

  /** resolve_import: the object an import names, reporting what Encore reports when it cannot. */
  resolveImport(ns: ModuleNs, imp: ImportedName): Obj | null {
    const m = this.loader.resolveImport(ns.base.path, imp.importPath);
    if (m === null) return null;
    if (isLoadError(m)) {
      this.report(imp.node, `import not found: ${loadErrorDisplay(m)}`);
      return null;
    }
    const target = this.moduleNs(m);
    if (imp.kind.k === "namespace") {
      const obj = this.moduleObjects.get(target.base.id) ?? null;
      if (obj === null) this.report(imp.node, "object for namespaced import not found");
      return obj;
    }
    const name = imp.kind.k === "named" ? imp.kind.name : "default";
    const obj = this.namedExport(target.data, target.base.path, name);
    if (obj === null) this.report(imp.node, imp.kind.k === "named" ? `object not found: ${name}` : "default export not found");
    return obj;
  }

  /** NSData::get_named_export: own exports, then re-exports in order. */
  namedExport(data: NsData, fromPath: string, needle: string): Obj | null {
    if (needle === "default" && data.defaultExport !== null) return data.defaultExport;
    const own = data.namedExports.get(needle);
    if (own !== undefined) return own;
    for (const re of data.reexports) {
      if (re.k === "list") {
        const item = re.items.find((it) => (it.renamed ?? it.orig) === needle);
        if (item === undefined) continue;
        const target = this.moduleImport(fromPath, re.importPath);
        return target === null ? null : this.namedExport(target.data, target.base.path, item.orig);
      }
      const target = this.moduleImport(fromPath, re.importPath);
      const found = target === null ? null : this.namedExport(target.data, target.base.path, needle);
      if (found !== null) return found;
    }
    return null;
  }
}

export function isLoadError(x: Module | LoadError): x is LoadError {
  return "kind" in x;
}
