// Finds the places an app file uses encore.dev's resource-defining exports, the way Encore's
// parser does: only names imported from the exact "encore.dev/..." module count (TrackedNames in
// tsparser/src/parser/resources/parseutil.rs), so a local `api` or a re-export does not.
import ts from "typescript";

/** The keyspace classes of encore.dev/storage/cache, each a resource like the cluster it belongs to. */
export const KEYSPACE_CLASSES = [
  "StringKeyspace",
  "IntKeyspace",
  "FloatKeyspace",
  "StructKeyspace",
  "StringListKeyspace",
  "NumberListKeyspace",
  "StringSetKeyspace",
  "NumberSetKeyspace",
] as const;

const TRACKED_BY_MODULE = {
  "encore.dev/api": ["api", "Gateway"],
  "encore.dev/service": ["Service"],
  "encore.dev/auth": ["authHandler"],
  "encore.dev/storage/sqldb": ["SQLDatabase"],
  "encore.dev/pubsub": ["Topic", "Subscription"],
  "encore.dev/cron": ["CronJob"],
  "encore.dev/storage/objects": ["Bucket"],
  "encore.dev/config": ["secret"],
  "encore.dev/storage/cache": ["CacheCluster", ...KEYSPACE_CLASSES],
} as const;

/** A resource-defining export of encore.dev. */
export type TrackedName = (typeof TRACKED_BY_MODULE)[keyof typeof TRACKED_BY_MODULE][number];

/** The encore.dev exports that declare resources, by module. */
const TRACKED: Record<string, readonly string[]> = TRACKED_BY_MODULE;

/** One use of a tracked export: `api(...)`, `api.raw(...)`, `new Topic(...)`, `SQLDatabase.named(...)`. */
export interface EncoreRef {
  name: TrackedName;
  /** The call or new expression. */
  expr: ts.CallExpression | ts.NewExpression;
  /** For `api.raw(...)` / `Bucket.named(...)`: the member name. */
  member: string | null;
}

/** Lists every tracked use in a file, in source order. */
export function findEncoreRefs(sf: ts.SourceFile, checker: ts.TypeChecker): EncoreRef[] {
  const imported = new Map<ts.Symbol, TrackedName>();
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
    const names = TRACKED[stmt.moduleSpecifier.text];
    const bindings = stmt.importClause?.namedBindings;
    if (names === undefined || bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const spec of bindings.elements) {
      const importedName = (spec.propertyName ?? spec.name).text;
      const sym = checker.getSymbolAtLocation(spec.name);
      if (names.includes(importedName) && sym !== undefined) imported.set(sym, importedName as TrackedName);
    }
  }
  if (imported.size === 0) return [];
  const localNames = new Set([...imported.keys()].map((s) => s.name));

  const refs: EncoreRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && localNames.has(node.text)) {
      const sym = checker.getSymbolAtLocation(node);
      const name = sym && imported.get(sym);
      if (name !== undefined) {
        const ref = classify(node, name);
        if (ref !== null) refs.push(ref);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** Works out whether an identifier is called, constructed, or has a member called. */
function classify(ident: ts.Identifier, name: TrackedName): EncoreRef | null {
  const parent = ident.parent;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === ident) {
    return { name, expr: parent, member: null };
  }
  if (ts.isPropertyAccessExpression(parent) && parent.expression === ident) {
    const call = parent.parent;
    if (ts.isCallExpression(call) && call.expression === parent) {
      return { name, expr: call, member: parent.name.text };
    }
  }
  return null;
}

/** The encore.dev module a declaration lives in ("encore.dev/api"), or null for anything else. */
export function encoreModuleOf(decl: ts.Declaration): string | null {
  const file = decl.getSourceFile().fileName;
  const m = /\/node_modules\/encore\.dev\/(.+)\.ts$/.exec(file);
  if (m === null) return null;
  const dir = m[1].replace(/\/mod$/, "").replace(/^mod$/, "");
  return dir === "" ? "encore.dev" : `encore.dev/${dir}`;
}

/** Follows import aliases to the symbol that declares a name. */
export function resolveAlias(sym: ts.Symbol, checker: ts.TypeChecker): ts.Symbol {
  return sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
}
