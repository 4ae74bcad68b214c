// Encore's compile-time SQL check (tsparser/src/parser/resources/infra/sqldb.rs `resolve_database_usage`):
// every `query`/`queryRow`/`queryAll`/`exec` template on a database, with its placeholders as $1..$n,
// and the string-literal SQL of `rawQuery`/`rawQueryRow`/`rawQueryAll`/`rawExec`, goes through the
// real PostgreSQL parser; a failure is "invalid database query: <parser message>" at the template or
// the literal. Only uses of the database itself count, not of a transaction or connection.
import { fileURLToPath } from "node:url";
import { createSyncFn } from "synckit";
import ts from "typescript";
import type { DatabaseDecl, DatabaseRef } from "./collect/sqldb";
import { resolveAlias } from "./base/encore-refs";
import type { Pass } from "./collect/pass";

const TEMPLATE_METHODS = new Set(["query", "queryRow", "queryAll", "exec"]);
const RAW_METHODS = new Set(["rawQuery", "rawQueryRow", "rawQueryAll", "rawExec"]);

type ParseAll = (queries: string[]) => Promise<(string | null)[]>;
let parseAll: ((queries: string[]) => (string | null)[]) | null = null;

/** Parser messages for each query, null where it parses; the worker starts on first use. */
function parseErrors(queries: string[]): (string | null)[] {
  parseAll ??= createSyncFn<ParseAll>(fileURLToPath(new URL("./sql-parser.worker.mjs", import.meta.url)), { timeout: 60_000 });
  return parseAll(queries);
}

/** The SQL Encore builds from a tagged template: the raw text with `$n` for the n-th substitution. */
function templateSql(tpl: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(tpl)) return tpl.rawText ?? tpl.text;
  let sql = tpl.head.rawText ?? tpl.head.text;
  tpl.templateSpans.forEach((span, i) => {
    sql += `$${i + 1}` + (span.literal.rawText ?? span.literal.text);
  });
  return sql;
}

export function checkQueries(pass: Pass, dbs: DatabaseDecl[], refs: DatabaseRef[]): void {
  // Variables bound to `new SQLDatabase(...)` or to `SQLDatabase.named(...)`.
  const bindings = new Set<ts.Declaration>();
  for (const db of dbs) if (db.binding !== null) bindings.add(db.binding);
  for (const ref of refs) if (ts.isVariableDeclaration(ref.node.parent)) bindings.add(ref.node.parent);
  const isDatabase = (expr: ts.Expression): boolean => {
    if (!ts.isIdentifier(expr)) return false;
    const sym = pass.checker.getSymbolAtLocation(expr);
    const decl = sym && resolveAlias(sym, pass.checker).valueDeclaration;
    return decl !== undefined && bindings.has(decl);
  };

  const found: { node: ts.Node; sql: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isPropertyAccessExpression(node.tag)) {
      if (TEMPLATE_METHODS.has(node.tag.name.text) && isDatabase(node.tag.expression))
        found.push({ node: node.template, sql: templateSql(node.template) });
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const sql = node.arguments[0];
      if (
        RAW_METHODS.has(node.expression.name.text) &&
        sql !== undefined &&
        ts.isStringLiteral(sql) &&
        isDatabase(node.expression.expression)
      ) {
        found.push({ node: sql, sql: sql.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  if (bindings.size === 0) return;
  for (const { sf } of pass.files) visit(sf);
  if (found.length === 0) return;
  parseErrors(found.map((f) => f.sql)).forEach((message, i) => {
    if (message !== null) pass.diags.error(found[i].node, `invalid database query: ${message}`, "invalid-database-query");
  });
}
