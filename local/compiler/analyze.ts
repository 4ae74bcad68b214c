// The local runtime's stand-in for Encore's compiler (tsparser): reads the app once, builds the
// AppModel every other part of local/ runs from, and rejects what Encore's compiler rejects (plus a
// few rules of our own, each marked as such). Resources are found through the TypeScript compiler
// API; schema types go through types/, Encore's resolver ported, and every file through swc.
//
// Files: every *.ts under the root except what Encore skips (node_modules, encore.gen,
// __tests__, dot-directories, *.test.ts, *.spec.ts), this runtime's own local/ included, as
// Encore's parser reads it too. See files.ts.
import path from "node:path";
import { collectAuthHandlers, collectGateways } from "./collect/auth";
import { collectCacheClusters } from "./collect/cache";
import { collectCronJobs } from "./collect/cron";
import { collectEndpoints } from "./collect/endpoints";
import { collectBuckets } from "./collect/objects";
import { collectSubscriptions, collectTopics } from "./collect/pubsub";
import { collectSecrets } from "./collect/secrets";
import { collectServices } from "./collect/services";
import { collectUsage } from "./collect/usage";
import { collectDatabases } from "./collect/sqldb";
import { checkEncoreApp } from "./base/appfile";
import { Diagnostics } from "./base/diagnostics";
import { findEncoreRefs } from "./base/encore-refs";
import { checkImports } from "./imports";
import { appFiles } from "./files";
import { type AppModel, AppCompileError, type CompileError } from "../model/app-model";
import type { Pass } from "./collect/pass";
import { createAppProgram } from "./program";
import { checkAuthGateway, checkDatabaseOwnership, checkEndpoints, checkResourceNames } from "./rules";
import { SchemaBuilder } from "./types/schema";
import { TypeSystem } from "./types/system";
import { checkQueries } from "./sql-check";

/** Analyzes the app at `root` (the directory holding encore.app); throws AppCompileError on violations. */
export function analyzeApp(root: string): AppModel {
  const absRoot = path.resolve(root);
  const rels = appFiles(absRoot).ts;
  const program = createAppProgram(rels.map((r) => path.join(absRoot, r)));
  const checker = program.getTypeChecker();
  const diags = new Diagnostics(absRoot);
  checkEncoreApp(absRoot, diags);
  const types = new TypeSystem({
    root: absRoot,
    report: (node, message) => diags.error(node, message, "type-resolve"),
    sourceFile: (file) => program.getSourceFile(file),
  });
  const files = rels.flatMap((rel) => {
    const sf = program.getSourceFile(path.join(absRoot, rel));
    if (sf === undefined) throw new Error(`analyzer: ${rel} is missing from the program`);
    // Encore's walker parses each file with swc; one swc refuses is reported and skipped.
    const loaded = types.loadAppFile(sf.fileName);
    if ("kind" in loaded) {
      if (loaded.kind === "parse")
        diags.errorAt({ file: rel, line: loaded.failure.line, column: loaded.failure.column }, loaded.failure.message, "syntax-error");
      return [];
    }
    // TypeScript's own syntax errors too: the rest of the analysis reads TypeScript's tree (stricter than Encore).
    diags.syntaxErrors(sf, program.getSyntacticDiagnostics(sf));
    return [{ sf, rel, refs: findEncoreRefs(sf, checker) }];
  });
  const schemas = new SchemaBuilder(types, (message) => diags.error(types.current(), message, "schema-unsupported-type"));
  const pass: Pass = { program, checker, diags, types, schemas, files, services: [] };

  pass.services = collectServices(pass);
  const endpoints = collectEndpoints(pass);
  const { handlers, bindings: authBindings } = collectAuthHandlers(pass);
  const gateways = collectGateways(pass, handlers, authBindings);
  const { dbs, refs: dbRefs } = collectDatabases(pass);
  const topics = collectTopics(pass);
  const subs = collectSubscriptions(pass, topics);
  const crons = collectCronJobs(pass, endpoints);
  const buckets = collectBuckets(pass);
  const caches = collectCacheClusters(pass);
  const secrets = collectSecrets(pass);
  const usage = collectUsage(pass, topics, buckets);

  checkEndpoints(pass, endpoints);
  checkAuthGateway(pass, endpoints, handlers, gateways);
  checkResourceNames(pass, { dbs, topics, subs, crons, buckets, caches });
  checkDatabaseOwnership(pass, dbs, dbRefs);
  checkQueries(pass, dbs, dbRefs);
  checkImports(pass);

  const failures = diags.failures();
  if (failures.length > 0) {
    const byPos = (a: CompileError, b: CompileError): number =>
      a.loc.file.localeCompare(b.loc.file) || a.loc.line - b.loc.line || a.loc.column - b.loc.column;
    // One cause can be met twice (a file swc refuses, then an import of it): report it once.
    const seen = new Set<string>();
    const unique = failures.filter((e) => {
      const key = `${e.loc.file}:${e.loc.line}:${e.loc.column}:${e.message}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
    throw new AppCompileError(unique.sort(byPos));
  }
  return {
    root: absRoot,
    services: pass.services,
    endpoints: endpoints.map((e) => e.model),
    gateways: gateways.flatMap((g) => (g.model === null ? [] : [g.model])),
    authHandler: handlers[0]?.model ?? null,
    databases: dbs.map((d) => d.model),
    topics: topics.map((t) => ({ ...t.model, publishers: [...(usage.publishers.get(t.model.name) ?? [])].sort() })),
    subscriptions: subs.map((s) => s.model),
    cronJobs: crons.map((c) => c.model),
    buckets: buckets.map((b) => ({ ...b.model, usedBy: [...(usage.bucketUsers.get(b.model.name) ?? [])].sort() })),
    cacheClusters: caches.map((c) => c.model),
    secrets,
    serviceCalls: usage.calls,
  };
}
