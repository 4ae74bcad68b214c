// The named things of a module as Encore's resolver records them (tsparser/src/parser/types/object.rs):
// top-level declarations, imports, named and default exports and re-exports. Names are looked up
// per module, then in the universe; nothing else is in scope.
import ts from "typescript";
import type { Module } from "./loader";
import type { Type } from "./typ";

export type ObjKind =
  | { k: "type-name"; decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration }
  | { k: "enum"; decl: ts.EnumDeclaration }
  | { k: "var"; typeAnn: ts.TypeNode | null; init: ts.Expression | null }
  | { k: "using"; typeAnn: ts.TypeNode | null; init: ts.Expression | null }
  | { k: "func"; decl: ts.FunctionDeclaration }
  | { k: "class"; decl: ts.ClassDeclaration }
  | { k: "module"; ns: ModuleNs }
  | { k: "namespace"; data: NsData };

/** object.rs Object: a named language entity, its type computed once (CheckState). */
export interface Obj {
  id: number;
  name: string | null;
  kind: ObjKind;
  module: Module;
  /** Where it is declared (Object.range). */
  node: ts.Node;
  state: { s: "not-started" } | { s: "in-progress" } | { s: "done"; typ: Type };
}

type ImportKind = { k: "named"; name: string } | { k: "default" } | { k: "namespace" };

export interface ImportedName {
  node: ts.Node;
  importPath: string;
  kind: ImportKind;
}

type Reexport = { k: "list"; items: { orig: string; renamed: string | null }[]; importPath: string } | { k: "all"; importPath: string };

/** object.rs NSData. */
export interface NsData {
  imports: Map<string, ImportedName>;
  topLevel: Map<string, Obj>;
  namedExports: Map<string, Obj>;
  defaultExport: Obj | null;
  reexports: Reexport[];
}

/** object.rs Module: a loaded module and its namespace. */
export interface ModuleNs {
  base: Module;
  data: NsData;
}

/** The type parameters a named type declares (ObjectKind::type_params). */
export function typeParamsOf(obj: Obj): readonly ts.TypeParameterDeclaration[] {
  return obj.kind.k === "type-name" ? (obj.kind.decl.typeParameters ?? []) : [];
}

/** Reports an error at a node, as Encore's HANDLER.span_err does. */
type Report = (node: ts.Node | null, message: string) => void;

/** Builds the objects of one module (process_module_items). */
export class NsBuilder {
  constructor(
    private readonly newObj: (name: string | null, node: ts.Node, kind: ObjKind) => Obj,
    private readonly report: Report,
  ) {}

  build(statements: readonly ts.Statement[]): NsData {
    const ns: NsData = { imports: new Map(), topLevel: new Map(), namedExports: new Map(), defaultExport: null, reexports: [] };
    const localExports: ts.ExportDeclaration[] = [];
    for (const stmt of statements) {
      if (ts.isImportDeclaration(stmt)) this.importDecl(ns, stmt);
      else if (ts.isExportDeclaration(stmt)) {
        if (stmt.moduleSpecifier !== undefined && ts.isStringLiteral(stmt.moduleSpecifier)) {
          const importPath = stmt.moduleSpecifier.text;
          const clause = stmt.exportClause;
          if (clause === undefined) ns.reexports.push({ k: "all", importPath });
          else if (ts.isNamedExports(clause)) {
            const items = clause.elements.map((e) => ({
              orig: (e.propertyName ?? e.name).text,
              renamed: e.propertyName ? e.name.text : null,
            }));
            ns.reexports.push({ k: "list", items, importPath });
          }
          // `export * as ns from` is skipped, as Encore skips its namespace specifier.
        } else localExports.push(stmt);
      } else if (ts.isExportAssignment(stmt)) {
        // `export default <expr>` and `export =` declare nothing Encore resolves (ExportDefaultExpr).
      } else {
        const isDefault = hasModifier(stmt, ts.SyntaxKind.DefaultKeyword);
        const exported = hasModifier(stmt, ts.SyntaxKind.ExportKeyword);
        if (exported && isDefault) this.defaultDecl(ns, stmt);
        else {
          const objs = this.stmt(ns, stmt);
          if (exported) for (const obj of objs) if (obj.name !== null) ns.namedExports.set(obj.name, obj);
        }
      }
    }
    for (const decl of localExports) this.localExport(ns, decl);
    return ns;
  }

  private importDecl(ns: NsData, imp: ts.ImportDeclaration): void {
    if (!ts.isStringLiteral(imp.moduleSpecifier)) return;
    const importPath = imp.moduleSpecifier.text;
    const clause = imp.importClause;
    if (clause === undefined) return;
    const add = (local: ts.Identifier, node: ts.Node, kind: ImportKind): void => {
      if (ns.imports.has(local.text)) {
        this.report(node, `\`${local.text}\` already imported`);
        return;
      }
      ns.imports.set(local.text, { node, importPath, kind });
    };
    if (clause.name !== undefined) add(clause.name, clause.name, { k: "default" });
    const bindings = clause.namedBindings;
    if (bindings === undefined) return;
    if (ts.isNamespaceImport(bindings)) add(bindings.name, bindings, { k: "namespace" });
    else for (const spec of bindings.elements) add(spec.name, spec, { k: "named", name: (spec.propertyName ?? spec.name).text });
  }

  /** Declarations in a statement; blocks are searched too, as process_stmt does. */
  private stmt(ns: NsData, stmt: ts.Statement): Obj[] {
    if (ts.isBlock(stmt)) return stmt.statements.flatMap((s) => this.stmt(ns, s));
    return this.decl(ns, stmt);
  }

  /** process_decl: the first declaration of a name stays in scope; every one is returned for exports. */
  private decl(ns: NsData, stmt: ts.Statement): Obj[] {
    const one = (name: ts.Identifier, kind: ObjKind): Obj[] => {
      const obj = this.newObj(name.text, stmt, kind);
      if (!ns.topLevel.has(name.text)) ns.topLevel.set(name.text, obj);
      return [obj];
    };
    if (ts.isClassDeclaration(stmt) && stmt.name) return one(stmt.name, { k: "class", decl: stmt });
    if (ts.isFunctionDeclaration(stmt) && stmt.name) return one(stmt.name, { k: "func", decl: stmt });
    if (ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt)) return one(stmt.name, { k: "type-name", decl: stmt });
    if (ts.isEnumDeclaration(stmt)) return one(stmt.name, { k: "enum", decl: stmt });
    if (ts.isVariableStatement(stmt)) {
      const using = (stmt.declarationList.flags & (ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)) !== 0;
      return stmt.declarationList.declarations.flatMap((d) =>
        bindingNames(d.name).map((name) => {
          // A type annotation belongs to a plain identifier only; destructured names get none (binding.rs).
          const typeAnn = ts.isIdentifier(d.name) ? (d.type ?? null) : null;
          const obj = this.newObj(name.text, d, { k: using ? "using" : "var", typeAnn, init: d.initializer ?? null });
          if (!ns.topLevel.has(name.text)) ns.topLevel.set(name.text, obj);
          return obj;
        }),
      );
    }
    if (ts.isModuleDeclaration(stmt) && ts.isIdentifier(stmt.name))
      return one(stmt.name, { k: "namespace", data: this.namespaceBody(stmt) });
    return [];
  }

  private namespaceBody(decl: ts.ModuleDeclaration): NsData {
    const body = decl.body;
    if (body === undefined) return this.build([]);
    if (ts.isModuleBlock(body)) return this.build(body.statements);
    // `namespace A.B {}`: B is a namespace inside A.
    if (ts.isModuleDeclaration(body) && ts.isIdentifier(body.name)) {
      const ns = this.build([]);
      const inner = this.newObj(body.name.text, body, { k: "namespace", data: this.namespaceBody(body) });
      ns.topLevel.set(body.name.text, inner);
      return ns;
    }
    return this.build([]);
  }

  private defaultDecl(ns: NsData, stmt: ts.Statement): void {
    let obj: Obj | null = null;
    const name = (n: ts.Identifier | undefined): string | null => n?.text ?? null;
    if (ts.isClassDeclaration(stmt)) obj = this.newObj(name(stmt.name), stmt, { k: "class", decl: stmt });
    else if (ts.isFunctionDeclaration(stmt)) obj = this.newObj(name(stmt.name), stmt, { k: "func", decl: stmt });
    else if (ts.isInterfaceDeclaration(stmt)) obj = this.newObj(stmt.name.text, stmt, { k: "type-name", decl: stmt });
    if (obj === null) return;
    if (ns.defaultExport !== null) this.report(stmt, "duplicate default export");
    ns.defaultExport = obj;
  }

  /** `export { a, b as c }` without a source: a declaration of this module, else an import passed on. */
  private localExport(ns: NsData, decl: ts.ExportDeclaration): void {
    const clause = decl.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) return;
    for (const spec of clause.elements) {
      const orig = (spec.propertyName ?? spec.name).text;
      const exported = spec.name.text;
      const obj = [...ns.topLevel.values()].find((o) => o.name === orig);
      if (obj !== undefined) {
        ns.namedExports.set(exported, obj);
        continue;
      }
      const imp = [...ns.imports.values()].find((i) => i.kind.k === "named" && i.kind.name === orig);
      if (imp !== undefined) {
        ns.reexports.push({ k: "list", importPath: imp.importPath, items: [{ orig, renamed: exported !== orig ? exported : null }] });
      }
    }
  }
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/** The identifiers a binding pattern binds. */
function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}
