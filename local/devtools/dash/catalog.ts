// The service catalog and the flow diagram's graph, both read from the app model (as Encore's
// dashboard reads its app metadata).
import type { AppModel, EndpointModel } from "../../model/app-model";
import { callForm, fieldPlace } from "./examples";

/** An endpoint as the catalog and the explorer show it: where each request field travels, and the explorer's form per method. */
function endpointView(e: EndpointModel) {
  const request = e.request && { fields: e.request.fields.map((f) => ({ ...f, place: fieldPlace(f, e.methods[0]) })) };
  const forms = Object.fromEntries(e.methods.map((m) => [m, callForm(e, m)]));
  return { ...e, id: `${e.service}.${e.name}`, request, forms };
}

/** Services with their endpoints (doc comments, schemas, method, path, auth) and resources. */
export function catalogOf(model: AppModel) {
  return {
    services: model.services.map((s) => ({
      name: s.name,
      dir: s.dir,
      endpoints: model.endpoints.filter((e) => e.service === s.name).map(endpointView),
      databases: model.databases.filter((d) => d.service === s.name).map((d) => d.name),
      subscriptions: model.subscriptions.filter((x) => x.service === s.name).map((x) => ({ topic: x.topic, name: x.name })),
      cronJobs: model.cronJobs
        .filter((c) => c.endpoint.service === s.name)
        .map((c) => ({
          id: c.id,
          title: c.title,
          schedule: c.schedule,
          everyMs: c.everyMs,
          endpoint: `${c.endpoint.service}.${c.endpoint.name}`,
        })),
    })),
    authHandler: model.authHandler && {
      service: model.authHandler.service,
      name: model.authHandler.name,
      params: model.authHandler.params,
      authData: model.authHandler.authData,
    },
    topics: model.topics.map((t) => ({
      name: t.name,
      publishers: t.publishers,
      deliveryGuarantee: t.deliveryGuarantee,
      message: t.message,
    })),
  };
}

export type FlowNodeKind = "service" | "database" | "topic" | "bucket" | "cron";
export type FlowEdgeKind = "call" | "publish" | "subscribe" | "database" | "bucket" | "cron";

export interface FlowNode {
  id: string;
  kind: FlowNodeKind;
  label: string;
}

export interface FlowEdge {
  from: string;
  to: string;
  kind: FlowEdgeKind;
  /** Pub/Sub edges are drawn dashed, as in Encore's flow diagram; calls solid. */
  dashed: boolean;
  label?: string;
}

/** Nodes for services, databases, topics, buckets and cron jobs; edges for calls, publishes, subscriptions and uses. */
export function flowOf(model: AppModel): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = [
    ...model.services.map((s): FlowNode => ({ id: `service:${s.name}`, kind: "service", label: s.name })),
    ...model.databases.map((d): FlowNode => ({ id: `database:${d.name}`, kind: "database", label: d.name })),
    ...model.topics.map((t): FlowNode => ({ id: `topic:${t.name}`, kind: "topic", label: t.name })),
    ...model.buckets.map((b): FlowNode => ({ id: `bucket:${b.name}`, kind: "bucket", label: b.name })),
    ...model.cronJobs.map((c): FlowNode => ({ id: `cron:${c.id}`, kind: "cron", label: c.title ?? c.id })),
  ];
  const edges: FlowEdge[] = [];
  const calls = new Map<string, string[]>();
  for (const c of model.serviceCalls) {
    if (c.from === c.to) continue;
    const key = `${c.from}\0${c.to}`;
    calls.set(key, [...(calls.get(key) ?? []), c.endpoint]);
  }
  for (const [key, endpoints] of calls) {
    const [from, to] = key.split("\0");
    edges.push({ from: `service:${from}`, to: `service:${to}`, kind: "call", dashed: false, label: endpoints.join(", ") });
  }
  for (const t of model.topics) {
    for (const p of t.publishers)
      edges.push({ from: `service:${p}`, to: `topic:${t.name}`, kind: "publish", dashed: true, label: "publish" });
  }
  for (const s of model.subscriptions) {
    edges.push({ from: `topic:${s.topic}`, to: `service:${s.service}`, kind: "subscribe", dashed: true, label: s.name });
  }
  for (const d of model.databases) edges.push({ from: `service:${d.service}`, to: `database:${d.name}`, kind: "database", dashed: false });
  for (const b of model.buckets) {
    for (const user of b.usedBy) edges.push({ from: `service:${user}`, to: `bucket:${b.name}`, kind: "bucket", dashed: false });
  }
  for (const c of model.cronJobs)
    edges.push({ from: `cron:${c.id}`, to: `service:${c.endpoint.service}`, kind: "cron", dashed: false, label: c.endpoint.name });
  return { nodes, edges };
}
