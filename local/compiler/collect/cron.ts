// `new CronJob(id, { endpoint, title?, every? | schedule? })` (infra/cron.rs).
import ts from "typescript";
import { declarationOf } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import { cronScheduleError } from "../base/cron-schedule";
import { type ConfigProps, requiredProp, stringLit } from "../base/literal";
import type { CronJobModel } from "../../model/app-model";
import { type Pass, isNew, locOf, parseEach } from "./pass";
import type { EndpointDecl } from "./endpoints";
import { durationProp } from "./pubsub";
import { parseNamedResource } from "./resource";

export interface CronDecl {
  model: CronJobModel;
  node: ts.NewExpression;
}

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

export function collectCronJobs(pass: Pass, endpoints: EndpointDecl[]): CronDecl[] {
  return parseEach(pass, isNew("CronJob"), (r, rel) => parseCronJob(pass, r.expr as ts.NewExpression, rel, endpoints));
}

const MINUTE = 60_000;

function parseCronJob(pass: Pass, expr: ts.NewExpression, rel: string, endpoints: EndpointDecl[]): CronDecl {
  const r = parseNamedResource(expr, { configRequired: true, keys: ["endpoint", "title", "every", "schedule"] });
  const cfg = r.config as ConfigProps;
  const endpointExpr = requiredProp(cfg, "endpoint", r.configNode as ts.Node);
  const target = declarationOf(endpointExpr, pass.checker);
  if (target === null) fail(endpointExpr, "cannot resolve endpoint", "cron-endpoint-unresolved");
  const endpoint = endpoints.find((e) => e.decl === target);
  if (endpoint === undefined) fail(endpointExpr, "endpoint not found", "cron-endpoint-unresolved");

  const titleNode = cfg.get("title")?.value;
  const everyNode = cfg.get("every")?.value;
  const scheduleNode = cfg.get("schedule")?.value;
  let everyMs: number | null = null;
  let schedule: string | null = null;
  if (everyNode === undefined && scheduleNode === undefined) {
    fail(expr, "expected either `every` or `schedule` to be set", "cron-invalid-schedule");
  }
  if (everyNode !== undefined && scheduleNode !== undefined) {
    fail(expr, "expected either `every` or `schedule` to be set, not both", "cron-invalid-schedule");
  }
  if (everyNode !== undefined) {
    everyMs = durationProp(cfg, "every", 0);
    if (Math.floor(everyMs / 1000) % 60 !== 0) fail(everyNode, "`every` must be a multiple of 60 seconds", "cron-invalid-every");
    if (Math.floor(everyMs / MINUTE) > 24 * 60) fail(everyNode, "`every` must be at most 24 hours", "cron-invalid-every");
    everyMs = Math.floor(everyMs / MINUTE) * MINUTE;
  }
  if (scheduleNode !== undefined) {
    if (!ts.isStringLiteral(scheduleNode)) fail(scheduleNode, "expected cron expression", "cron-invalid-schedule");
    const err = cronScheduleError(scheduleNode.text);
    if (err !== null) fail(scheduleNode, err, "cron-invalid-schedule");
    schedule = scheduleNode.text;
  }
  return {
    model: {
      id: r.name,
      title: titleNode === undefined ? null : stringLit(titleNode),
      file: rel,
      loc: locOf(pass, expr),
      schedule,
      everyMs,
      endpoint: { service: endpoint.model.service, name: endpoint.model.name },
    },
    node: expr,
  };
}
