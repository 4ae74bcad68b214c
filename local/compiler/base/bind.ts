// Where a resource expression is bound: the variable, whether it is exported at top level,
// whether it sits inside a function (Encore's extract_bind_name / is_default_export).
import ts from "typescript";
import { ParseFailure } from "./diagnostics";

/** The nearest enclosing variable declaration, as Encore's extract_bind_name finds it. */
export function enclosingVariable(node: ts.Node): ts.VariableDeclaration | null {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isVariableDeclaration(n)) return n;
    if (ts.isSourceFile(n)) break;
  }
  return null;
}

/** The bound identifier of a declaration, or Encore's error for a destructuring pattern. */
export function bindName(decl: ts.VariableDeclaration): ts.Identifier {
  if (!ts.isIdentifier(decl.name)) throw new ParseFailure(decl.name, "expected identifier as bind name", "bind-not-identifier");
  return decl.name;
}

/** Strips parentheses, `as`, `satisfies` and `!` around an expression. */
function unwrapExpr(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e)) {
    e = e.expression;
  }
  return e;
}

/** Whether `expr` is the declaration's initializer itself (not nested inside it). */
export function isDirectInitializer(decl: ts.VariableDeclaration, expr: ts.Expression): boolean {
  return decl.initializer !== undefined && unwrapExpr(decl.initializer) === expr;
}

/** Whether a declaration is `export const|let|var x = ...` at the top of its file. */
export function isExportedTopLevel(decl: ts.VariableDeclaration): boolean {
  const stmt = decl.parent.parent;
  return (
    ts.isVariableStatement(stmt) &&
    ts.isSourceFile(stmt.parent) &&
    (stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false)
  );
}

/** Whether an expression is exactly `export default <expr>`. */
export function isDefaultExport(expr: ts.Expression): boolean {
  const p = expr.parent;
  return ts.isExportAssignment(p) && !p.isExportEquals && unwrapExpr(p.expression) === expr;
}

/** The innermost enclosing function, if any (secrets must be declared outside functions). */
export function enclosingFunction(node: ts.Node): ts.Node | null {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionLike(n)) return n;
  }
  return null;
}

/** The declaration an expression refers to, following imports (for `endpoint: cleanup`). */
export function declarationOf(expr: ts.Expression, checker: ts.TypeChecker): ts.Declaration | null {
  const e = unwrapExpr(expr);
  const target = ts.isPropertyAccessExpression(e) ? e.name : e;
  const sym = checker.getSymbolAtLocation(target);
  if (sym === undefined) return null;
  const resolved = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  return resolved.valueDeclaration ?? resolved.declarations?.[0] ?? null;
}
