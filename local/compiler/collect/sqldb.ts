// `new SQLDatabase(name, { migrations })` and `SQLDatabase.named(name)` (infra/sqldb.rs).
import path from "node:path";
import ts from "typescript";
import { ParseFailure, attempt } from "../base/diagnostics";
import { localRelPathLit, parseConfigObject, stringLit } from "../base/literal";
import { readMigrations } from "../base/migrations";
import type { DatabaseModel } from "../../model/app-model";
import { type Pass, locOf, requireService } from "./pass";
import { parseNamedResource } from "./resource";

export interface DatabaseDecl {
  model: DatabaseModel;
  node: ts.NewExpression;
  binding: ts.VariableDeclaration | null;
}

/** A `SQLDatabase.named("x")` reference, checked against the declared databases later. */
export interface DatabaseRef {
  name: string;
  node: ts.CallExpression;
}

export function collectDatabases(pass: Pass): { dbs: DatabaseDecl[]; refs: DatabaseRef[] } {
  const dbs: DatabaseDecl[] = [];
  const refs: DatabaseRef[] = [];
  for (const file of pass.files) {
    for (const ref of file.refs) {
      if (ref.name !== "SQLDatabase") continue;
      if (ts.isNewExpression(ref.expr)) {
        const expr = ref.expr;
        const db = attempt(pass.diags, () => parseDatabase(pass, expr, file.rel));
        if (db !== undefined) dbs.push(db);
      } else if (ref.member === "named") {
        const call = ref.expr;
        const arg = call.arguments[0];
        attempt(pass.diags, () => {
          if (arg === undefined) throw new ParseFailure(call, "missing resource name as argument[0]", "resource-name-not-literal");
          refs.push({ name: stringLit(arg), node: call });
        });
      }
    }
  }
  return { dbs, refs };
}

function parseDatabase(pass: Pass, expr: ts.NewExpression, rel: string): DatabaseDecl {
  const r = parseNamedResource(expr, { configRequired: false, keys: ["migrations"] });
  const service = requireService(pass, expr, `database ${r.name}`);
  let migrationsDir: string | null = null;
  let migrations: DatabaseModel["migrations"] = [];
  const m = r.config?.get("migrations")?.value;
  if (m !== undefined) {
    let relDir: string;
    if (ts.isStringLiteral(m)) relDir = localRelPathLit(m);
    else {
      const obj = parseConfigObject(m, ["path", "source"]);
      const p = obj.get("path")?.value;
      if (p === undefined) throw new ParseFailure(m, "field path is required but is missing", "config-missing-field");
      relDir = localRelPathLit(p);
      const source = obj.get("source")?.value;
      if (source !== undefined) {
        throw new ParseFailure(
          source,
          `migration source "${stringLit(source)}" is not supported by the local runtime`,
          "unsupported-by-local-runtime",
        );
      }
    }
    migrationsDir = path.resolve(path.dirname(expr.getSourceFile().fileName), relDir);
    const read = readMigrations(migrationsDir);
    for (const err of read.errors) {
      const rule = err.startsWith("invalid migration filename")
        ? "invalid-migration-filename"
        : err.startsWith("duplicate")
          ? "duplicate-migration-number"
          : "migrations-dir-unreadable";
      pass.diags.error(m, err, rule);
    }
    migrations = read.migrations;
  }
  return {
    model: { name: r.name, service: service.name, file: rel, loc: locOf(pass, expr), migrationsDir, migrations },
    node: expr,
    binding: r.binding,
  };
}
