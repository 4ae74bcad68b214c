// The local runtime's stand-in for Encore's compiler (tsparser): reads the app once through the
// TypeScript compiler API, builds the AppModel every other part of local/ runs from, and rejects
// what Encore's compiler rejects (plus a few rules of our own, each marked as such).
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
import { checkEncoreApp } from "./appfile";
import { Diagnostics } from "./diagnostics";
import { findEncoreRefs } from "./encore-refs";
import { checkImports } from "./imports";
import { appFiles } from "./files";
import { type AppModel, AppCompileError, type CompileError } from "./model";
import type { Pass } from "./pass";
import { createAppProgram } from "./program";
import { checkAuthGateway, checkDatabaseOwnership, checkEndpoints, checkResourceNames } from "./rules";
import { SchemaBuilder } from "./schema";
import { checkQueries } from "./sql-check";

/** Analyzes the app at `root` (the directory holding encore.app); throws AppCompileError on violations. */
export function analyzeApp(root: string): AppModel {
  const absRoot = path.resolve(root);
  const rels = appFiles(absRoot).ts;
  const program = createAppProgram(rels.map((r) => path.join(absRoot, r)));
  const checker = program.getTypeChecker();
  const diags = new Diagnostics(absRoot);
  checkEncoreApp(absRoot, diags);
  const files = rels.map((rel) => {
    const sf = program.getSourceFile(path.join(absRoot, rel));
    if (sf === undefined) throw new Error(`analyzer: ${rel} is missing from the program`);
    diags.syntaxErrors(sf, program.getSyntacticDiagnostics(sf));
    return { sf, rel, refs: findEncoreRefs(sf, checker) };
  });
  const pass: Pass = { program, checker, diags, schemas: new SchemaBuilder(checker, program), files, services: [] };

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

  if (diags.errors.length > 0) {
    const byPos = (a: CompileError, b: CompileError): number =>
      a.loc.file.localeCompare(b.loc.file) || a.loc.line - b.loc.line || a.loc.column - b.loc.column;
    throw new AppCompileError([...diags.errors].sort(byPos));
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
