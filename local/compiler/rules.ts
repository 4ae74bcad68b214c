// App-wide rules checked once every resource is known (app/mod.rs AppValidator), plus the
// rules this runtime adds where Encore would silently misbehave.
import ts from "typescript";
import type { AuthDecl, GatewayDecl } from "./collect/auth";
import type { EndpointDecl } from "./collect/endpoints";
import type { BucketDecl } from "./collect/objects";
import type { CacheClusterDecl } from "./collect/cache";
import type { CronDecl } from "./collect/cron";
import type { SubscriptionDecl, TopicDecl } from "./collect/pubsub";
import type { DatabaseDecl, DatabaseRef } from "./collect/sqldb";
import { resolveAlias } from "./base/encore-refs";
import type { HttpMethod, Loc } from "../model/app-model";
import { type Pass, serviceOf } from "./collect/pass";
import { RouteTree } from "./route-conflicts";

const at = (loc: Loc): string => `${loc.file}:${loc.line}:${loc.column}`;

/** A resource declaration as the collectors return it: its node, and its model with where it stands. */
interface Declared {
  node: ts.Node;
  model: { loc: Loc };
}

/** Reports every second declaration of a name, with Encore's message (and its help, if it has one). */
function checkDuplicates<T extends Declared>(
  pass: Pass,
  items: T[],
  key: (t: T) => string,
  message: string,
  rule: string,
  help = "",
): void {
  const seen = new Map<string, T>();
  for (const item of items) {
    const prev = seen.get(key(item));
    if (prev !== undefined)
      pass.diags.error(item.node, `${message} (previously defined here: ${at(prev.model.loc)})${help && `; help: ${help}`}`, rule);
    else seen.set(key(item), item);
  }
}

export function checkResourceNames(
  pass: Pass,
  r: {
    dbs: DatabaseDecl[];
    topics: TopicDecl[];
    subs: SubscriptionDecl[];
    crons: CronDecl[];
    buckets: BucketDecl[];
    caches: CacheClusterDecl[];
  },
): void {
  checkDuplicates(pass, r.dbs, (d) => d.model.name, "SQL Database with this name already defined", "duplicate-database");
  checkDuplicates(pass, r.topics, (t) => t.model.name, "PubSub topic with this name already defined", "duplicate-topic");
  checkDuplicates(
    pass,
    r.subs,
    (s) => `${s.model.topic}\0${s.model.name}`,
    "PubSub subscription with this name already defined on this topic",
    "duplicate-subscription",
  );
  checkDuplicates(pass, r.crons, (c) => c.model.id, "cron job with this name already defined", "duplicate-cron-job");
  checkDuplicates(pass, r.buckets, (b) => b.model.name, "bucket with this name already defined", "duplicate-bucket");
  checkDuplicates(
    pass,
    r.caches,
    (c) => c.model.name,
    "cache cluster with this name already defined",
    "duplicate-cache-cluster",
    "if you wish to reuse the same cluster, export the original CacheCluster object and import it, or use CacheCluster.named()",
  );
}

/**
 * Endpoint names per service, then route conflicts: per service and method with matchit's
 * rules (Encore's compile-time check), then across services (our rule: Encore's gateway keeps the
 * first service's route and skips the other's, logging it, so one endpoint would never be reached).
 */
export function checkEndpoints(pass: Pass, endpoints: EndpointDecl[]): void {
  // Reported at the endpoint's name, not at its api() call.
  checkDuplicates(
    pass,
    endpoints.map((e) => ({ node: e.decl.name, model: e.model })),
    (e) => `${e.model.service}\0${e.model.name}`,
    "api endpoints with conflicting names defined within the same service",
    "duplicate-endpoint-name",
  );
  const reported = new Set<string>();
  const id = (e: EndpointDecl): string => `${e.model.service}.${e.model.name}`;
  const describe = (e: EndpointDecl, m: HttpMethod): string => `${m} ${e.model.path} (${id(e)} at ${at(e.model.loc)})`;
  const firstReport = (a: EndpointDecl, b: EndpointDecl): boolean => {
    const pair = `${id(a)}\0${id(b)}`;
    if (reported.has(pair)) return false;
    reported.add(pair);
    return true;
  };
  forEachRouteClash(
    endpoints,
    (ep, m) => `${ep.model.service}\0${m}`,
    (ep, clash, method) => {
      if (!firstReport(clash, ep)) return;
      pass.diags.error(
        ep.node,
        `api endpoints with conflicting paths defined: ${method} ${ep.model.path} conflicts with ${describe(clash, method)}, previously defined here`,
        "conflicting-paths",
      );
    },
  );
  forEachRouteClash(
    endpoints,
    (_ep, m) => m,
    (ep, clash, method) => {
      if (clash.model.service === ep.model.service || !firstReport(clash, ep)) return;
      pass.diags.error(
        ep.node,
        `${method} ${ep.model.path} in service ${ep.model.service} conflicts with ${describe(clash, method)}: ` +
          'Encore\'s gateway would register only one of them, log "tried to register same route twice, skipping" ' +
          "and never route to the other (this runtime's rule; Encore's compiler only checks conflicts within a service)",
        "conflicting-paths-across-services",
      );
    },
  );
}

/** Inserts every endpoint's path once per method into the tree `treeKey` names, reporting clashes. */
function forEachRouteClash(
  endpoints: EndpointDecl[],
  treeKey: (ep: EndpointDecl, method: HttpMethod) => string,
  onClash: (ep: EndpointDecl, clash: EndpointDecl, method: HttpMethod) => void,
): void {
  const trees = new Map<string, RouteTree<EndpointDecl>>();
  for (const ep of endpoints) {
    for (const method of ep.model.methods) {
      const key = treeKey(ep, method);
      let tree = trees.get(key);
      if (tree === undefined) trees.set(key, (tree = new RouteTree()));
      const clash = tree.insert(ep.segments, ep);
      if (clash !== null) onClash(ep, clash, method);
    }
  }
}

/**
 * Our rule: auth:true endpoints need an exported Gateway with an authHandler. Without one
 * Encore compiles fine and then answers every such endpoint with 401.
 */
export function checkAuthGateway(pass: Pass, endpoints: EndpointDecl[], handlers: AuthDecl[], gateways: GatewayDecl[]): void {
  const needing = endpoints.filter((e) => e.model.auth);
  if (needing.length === 0) return;
  if (gateways.some((g) => g.model !== null && g.authHandler !== null)) return;
  const why =
    handlers.length === 0
      ? "the app defines no authHandler"
      : gateways.some((g) => g.authHandler !== null)
        ? "the Gateway using the authHandler is not an exported top-level variable"
        : "no Gateway uses the authHandler";
  pass.diags.error(
    needing[0].node,
    `endpoint ${needing[0].model.service}.${needing[0].model.name} has auth: true but ${why}: Encore would answer every auth: true endpoint ` +
      `(${needing.length} here) with 401 unauthenticated. Add \`export const gateway = new Gateway({ authHandler })\` ` +
      "in a service (this runtime's rule; Encore itself does not reject this)",
    "auth-without-gateway",
  );
}

/**
 * This app's rule (not Encore's, which allows sharing): a service may only use its own
 * databases, whether through another service's exported db object or SQLDatabase.named.
 */
export function checkDatabaseOwnership(pass: Pass, dbs: DatabaseDecl[], refs: DatabaseRef[]): void {
  const rule = "cross-service-database";
  const explain = (db: DatabaseDecl, user: string): string =>
    `service ${user} uses database "${db.model.name}" of service ${db.model.service} (declared at ${at(db.model.loc)}): ` +
    `this app's rule (not Encore's) is that each service owns its database; call ${db.model.service}'s API through ~encore/clients instead`;

  for (const ref of refs) {
    const rel = pass.diags.relPath(ref.node.getSourceFile().fileName);
    const user = serviceOf(pass, rel)?.name;
    const db = dbs.find((d) => d.model.name === ref.name);
    if (db === undefined) {
      pass.diags.error(
        ref.node,
        `SQLDatabase.named("${ref.name}") names no database declared with new SQLDatabase`,
        "database-not-declared",
      );
    } else if (user !== undefined && user !== db.model.service) {
      pass.diags.error(ref.node, explain(db, user), rule);
    }
  }

  const byBinding = new Map<ts.Declaration, DatabaseDecl>();
  for (const db of dbs) if (db.binding !== null) byBinding.set(db.binding, db);
  if (byBinding.size === 0) return;
  for (const { sf, rel } of pass.files) {
    const user = serviceOf(pass, rel)?.name;
    if (user === undefined) continue;
    const reported = new Set<DatabaseDecl>();
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && mayNameImport(node)) {
        const sym = pass.checker.getSymbolAtLocation(node);
        const decl = sym && resolveAlias(sym, pass.checker).valueDeclaration;
        const db = decl && byBinding.get(decl);
        if (db !== undefined && db.model.service !== user && !reported.has(db)) {
          reported.add(db);
          pass.diags.error(node, explain(db, user), rule);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}

/** Identifiers through which another module's variable can enter a file. */
function mayNameImport(id: ts.Identifier): boolean {
  const p = id.parent;
  return ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isExportSpecifier(p) || (ts.isPropertyAccessExpression(p) && p.name === id);
}
