// Who uses what, for the dashboard's flow diagram and catalog (Encore's metadata records the same:
// a topic's publishers, the services calling each other through ~encore/clients, bucket users).
import ts from "typescript";
import { declarationOf } from "../base/bind";
import type { ServiceCall } from "../../model/app-model";
import { type Pass, serviceOf } from "./pass";
import type { BucketDecl } from "./objects";
import type { TopicDecl } from "./pubsub";

export interface Usage {
  /** Topic name to the services that publish to it. */
  publishers: Map<string, Set<string>>;
  /** Bucket name to the services that use it. */
  bucketUsers: Map<string, Set<string>>;
  calls: ServiceCall[];
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

/** Reads every service file once for topic publishes, bucket uses and generated-client calls. */
export function collectUsage(pass: Pass, topics: TopicDecl[], buckets: BucketDecl[]): Usage {
  const usage: Usage = { publishers: new Map(), bucketUsers: new Map(), calls: [] };
  const topicByDecl = new Map<ts.Node, string>(topics.flatMap((t) => (t.binding ? [[t.binding, t.model.name] as const] : [])));
  const bucketByDecl = new Map<ts.Node, string>(buckets.flatMap((b) => (b.binding ? [[b.binding, b.model.name] as const] : [])));
  const names = new Set([...topicByDecl.keys(), ...bucketByDecl.keys()].map((d) => (d as ts.VariableDeclaration).name.getText()));
  const serviceByIdent = new Map(pass.services.map((s) => [s.name.replace(/-/g, "_"), s.name]));
  const seenCalls = new Set<string>();

  for (const file of pass.files) {
    const service = serviceOf(pass, file.rel)?.name;
    if (service === undefined) continue;
    const clients = clientImports(file.sf, pass.checker, serviceByIdent);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && !ts.isVariableDeclaration(node.parent)) {
        if (names.has(node.text)) {
          const decl = declarationOf(node, pass.checker);
          const topic = decl && topicByDecl.get(decl);
          const bucket = decl && bucketByDecl.get(decl);
          if (topic != null && isMethodCall(node, "publish")) add(usage.publishers, topic, service);
          if (bucket != null) add(usage.bucketUsers, bucket, service);
        }
        const target = clients.size > 0 ? clients.get(pass.checker.getSymbolAtLocation(node)!) : undefined;
        if (target !== undefined && ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node) {
          const endpoint = node.parent.name.text;
          const key = `${service}\0${target}\0${endpoint}`;
          if (!seenCalls.has(key)) {
            seenCalls.add(key);
            usage.calls.push({ from: service, to: target, endpoint });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file.sf);
  }
  return usage;
}

/** `x.method(...)` with `ident` as x. */
function isMethodCall(ident: ts.Identifier, method: string): boolean {
  const access = ident.parent;
  return (
    ts.isPropertyAccessExpression(access) &&
    access.expression === ident &&
    access.name.text === method &&
    ts.isCallExpression(access.parent)
  );
}

/** The services a file imports from ~encore/clients, by the import's symbol. */
function clientImports(sf: ts.SourceFile, checker: ts.TypeChecker, serviceByIdent: Map<string, string>): Map<ts.Symbol, string> {
  const out = new Map<ts.Symbol, string>();
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || stmt.moduleSpecifier.text !== "~encore/clients")
      continue;
    const bindings = stmt.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const spec of bindings.elements) {
      const service = serviceByIdent.get((spec.propertyName ?? spec.name).text);
      const sym = checker.getSymbolAtLocation(spec.name);
      if (service !== undefined && sym !== undefined) out.set(sym, service);
    }
  }
  return out;
}
