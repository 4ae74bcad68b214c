// `new Topic<Msg>(name, cfg)` and `new Subscription(topic, name, cfg)` (pubsub_topic.rs, pubsub_subscription.rs).
import ts from "typescript";
import { declarationOf } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import { parseDurationMs } from "../base/duration";
import { type ConfigProps, parseConfigObject, requiredProp, stringLit, unsignedLit } from "../base/literal";
import type { SubscriptionModel, TopicModel } from "../../model/app-model";
import { type Pass, isNew, locOf, parseEach, requireService } from "./pass";
import { parseNamedResource } from "./resource";
import { checkValidations, objectFields, resolveSchema, schemaOf } from "./signature";

export interface TopicDecl {
  model: TopicModel;
  node: ts.NewExpression;
  binding: ts.VariableDeclaration | null;
}

export interface SubscriptionDecl {
  model: SubscriptionModel;
  node: ts.NewExpression;
}

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

export function collectTopics(pass: Pass): TopicDecl[] {
  return parseEach(pass, isNew("Topic"), (r, rel) => parseTopic(pass, r.expr as ts.NewExpression, rel));
}

function parseTopic(pass: Pass, expr: ts.NewExpression, rel: string): TopicDecl {
  const r = parseNamedResource(expr, { configRequired: true, keys: ["deliveryGuarantee", "orderingAttribute"] });
  const cfg = r.config as ConfigProps;
  const msgNode = expr.typeArguments?.[0];
  if (msgNode === undefined) fail(expr, "missing message type parameter", "topic-missing-message-type");
  const guaranteeNode = cfg.get("deliveryGuarantee")?.value;
  const guarantee = guaranteeNode === undefined ? "at-least-once" : stringLit(guaranteeNode);
  if (guarantee !== "at-least-once" && guarantee !== "exactly-once") {
    fail(guaranteeNode as ts.Node, "invalid delivery guarantee", "topic-invalid-delivery-guarantee");
  }
  const ordering = cfg.get("orderingAttribute")?.value;
  // pubsub_topic.rs resolves it, app/mod.rs validate_pubsub checks its validations, legacymeta converts it.
  const resolved = resolveSchema(pass, msgNode);
  checkValidations(pass, resolved);
  const message = objectFields(schemaOf(pass, resolved, "could not resolve message type: "));
  if (message === null) fail(msgNode, "pubsub message type must be an object type (this runtime's rule)", "schema-not-object");
  return {
    model: {
      name: r.name,
      file: rel,
      loc: locOf(pass, expr),
      deliveryGuarantee: guarantee,
      orderingAttribute: ordering === undefined ? null : stringLit(ordering),
      message,
      publishers: [],
    },
    node: expr,
    binding: r.binding,
  };
}

export function collectSubscriptions(pass: Pass, topics: TopicDecl[]): SubscriptionDecl[] {
  return parseEach(pass, isNew("Subscription"), (r, rel) => parseSubscription(pass, r.expr as ts.NewExpression, rel, topics));
}

const SECOND = 1000;

function parseSubscription(pass: Pass, expr: ts.NewExpression, rel: string, topics: TopicDecl[]): SubscriptionDecl {
  const r = parseNamedResource(expr, {
    nameIdx: 1,
    configIdx: 2,
    configRequired: true,
    keys: ["handler", "maxConcurrency", "ackDeadline", "messageRetention", "retryPolicy"],
  });
  const cfg = r.config as ConfigProps;
  requiredProp(cfg, "handler", r.configNode as ts.Node);
  const topicExpr = expr.arguments?.[0] as ts.Expression;
  if (ts.isSpreadElement(topicExpr)) fail(topicExpr, "cannot use ... for PubSub topic reference", "subscription-topic-unresolved");
  const target = declarationOf(topicExpr, pass.checker);
  const topic = topics.find((t) => t.binding !== null && t.binding === target);
  if (topic === undefined) fail(topicExpr, "cannot resolve topic reference", "subscription-topic-unresolved");
  const service = requireService(pass, expr, `subscription ${r.name}`);

  const retryNode = cfg.get("retryPolicy")?.value;
  const retry = retryNode === undefined ? null : parseConfigObject(retryNode, ["minBackoff", "maxBackoff", "maxRetries"]);
  const maxConcurrency = cfg.get("maxConcurrency")?.value;
  const maxRetries = retry?.get("maxRetries")?.value;
  return {
    model: {
      topic: topic.model.name,
      name: r.name,
      service: service.name,
      file: rel,
      loc: locOf(pass, expr),
      ackDeadlineMs: durationProp(cfg, "ackDeadline", 30 * SECOND),
      messageRetentionMs: durationProp(cfg, "messageRetention", 7 * 24 * 3600 * SECOND),
      minBackoffMs: retry === null ? 10 * SECOND : durationProp(retry, "minBackoff", 10 * SECOND),
      maxBackoffMs: retry === null ? 600 * SECOND : durationProp(retry, "maxBackoff", 600 * SECOND),
      maxRetries: maxRetries === undefined ? 100 : unsignedLit(maxRetries, 32),
      maxConcurrency: maxConcurrency === undefined ? null : unsignedLit(maxConcurrency, 32),
    },
    node: expr,
  };
}

/** A duration-string config value in milliseconds, or the default when absent. */
export function durationProp(cfg: ConfigProps, key: string, dflt: number): number {
  const v = cfg.get(key)?.value;
  if (v === undefined) return dflt;
  if (!ts.isStringLiteral(v)) fail(v, "expected duration string literal", "config-expected-literal");
  const ms = parseDurationMs(v.text);
  if (ms === null) fail(v, `invalid duration string: ${JSON.stringify(v.text)}`, "invalid-duration");
  return ms;
}
