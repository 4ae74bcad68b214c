// `export const x = api({...}, handler)`, `api.raw(...)` and `api.static({...})` (apis/api.rs, apis/encoding.rs).
import ts from "typescript";
import { bindName, enclosingVariable, isDirectInitializer, isExportedTopLevel } from "../bind";
import { ParseFailure } from "../diagnostics";
import type { EncoreRef } from "../encore-refs";
import { boolLit, isNullLit, parseConfigObject, stringArrayLit, stringLit, unsignedLit } from "../literal";
import type { EndpointModel, FieldSchema, HttpMethod, ObjectSchema, TypeSchema } from "../model";
import { type Pass, locOf, parseEach, requireService } from "../pass";
import { type Segment, parsePath } from "../respath";
import { validationErrors } from "../schema";
import { describeSchema } from "../validation";
import { handlerTypes, objectSchemaOf } from "./signature";
import { docComment } from "../doc";
import { parseStaticAssets } from "./static-assets";

/** An endpoint with what the later rules need from its source. */
export interface EndpointDecl {
  model: EndpointModel;
  node: ts.CallExpression;
  decl: ts.VariableDeclaration;
  segments: Segment[];
}

/** Every key Encore's EndpointConfig accepts; the static-asset ones matter only to `api.static`. */
const CONFIG_KEYS = ["method", "path", "expose", "auth", "bodyLimit", "tags", "sensitive", "dir", "notFound", "notFoundStatus", "headers"];

/** Encore's method order (the Method enum), used when it sorts a method list. */
const METHOD_ORDER: HttpMethod[] = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"];
/** What "*" expands to: every method but CONNECT, which axum does not route. */
const ALL_METHODS = METHOD_ORDER.filter((m) => m !== "CONNECT");
const BODYLESS = new Set<HttpMethod>(["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"]);
const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

export function collectEndpoints(pass: Pass): EndpointDecl[] {
  return parseEach(
    pass,
    (r) => r.name === "api" && ts.isCallExpression(r.expr),
    (r, rel) => parseEndpoint(pass, r, rel),
  );
}

function parseEndpoint(pass: Pass, ref: EncoreRef, rel: string): EndpointDecl {
  const call = ref.expr as ts.CallExpression;
  if (ref.member !== null && ref.member !== "raw" && ref.member !== "static") {
    fail(call, `api.${ref.member} endpoints are not supported by the local runtime`, "unsupported-by-local-runtime");
  }
  const raw = ref.member === "raw";
  const isStatic = ref.member === "static";
  const decl = enclosingVariable(call);
  if (decl === null || !isDirectInitializer(decl, call) || !isExportedTopLevel(decl)) {
    fail(call, "API endpoint must be bound to an exported variable", "endpoint-not-exported");
  }
  const name = bindName(decl).text;
  const service = requireService(pass, call, `endpoint ${name}`);

  const configArg = call.arguments[0];
  if (configArg === undefined) fail(call, "API endpoint must have a config object as its first argument", "endpoint-invalid");
  const cfg = parseConfigObject(configArg, CONFIG_KEYS);
  const handler = call.arguments[1];
  if (handler === undefined && !isStatic) {
    fail(
      call,
      raw ? "API endpoint must have a handler function as its second argument" : "API endpoint must have a handler function",
      "endpoint-invalid",
    );
  }

  const opt = (key: string): ts.Expression | undefined => cfg.get(key)?.value;
  const flag = (key: string): boolean => {
    const v = opt(key);
    return v === undefined ? false : boolLit(v);
  };
  const methodNode = opt("method");
  // Static assets answer GET and HEAD whatever `method` says.
  const methods: HttpMethod[] = isStatic ? ["GET", "HEAD"] : methodNode === undefined ? ["POST"] : parseMethods(methodNode);
  const pathNode = opt("path");
  const path = pathNode !== undefined ? stringLit(pathNode) : `/${service.name}.${name}`;
  const parsed = parsePath(path);
  if ("error" in parsed) {
    const note = pathNode === undefined ? ` (no path provided, so defaulting to ${path})` : "";
    fail(pathNode ?? configArg, parsed.error + note, "invalid-path");
  }

  const bodyLimitNode = opt("bodyLimit");
  const tagsNode = opt("tags");
  const model: EndpointModel = {
    service: service.name,
    name,
    file: rel,
    loc: locOf(pass, call),
    methods,
    path,
    expose: flag("expose"),
    auth: flag("auth"),
    raw,
    bodyLimit: bodyLimitNode === undefined ? DEFAULT_BODY_LIMIT : isNullLit(bodyLimitNode) ? null : unsignedLit(bodyLimitNode, 64),
    tags: tagsNode === undefined ? [] : stringArrayLit(tagsNode),
    sensitive: flag("sensitive"),
    doc: docComment(decl),
    request: null,
    response: null,
    staticAssets: isStatic ? parseStaticAssets(pass, cfg, configArg, rel, parsed.segments, pathNode ?? configArg) : null,
  };

  if (!raw && !isStatic) {
    const types = handlerTypes(call, handler!, "endpoint handler cannot have type parameters");
    model.request = types.req === undefined ? null : objectSchemaOf(pass, types.req, false);
    model.response = types.resp === undefined ? null : objectSchemaOf(pass, types.resp, true);
    placePathParams(pass, model.request, parsed.segments, pathNode ?? configArg, call);
    checkRequestFields(pass, model, call);
    checkResponseFields(pass, model.response, call);
  }
  return { model, node: call, decl, segments: parsed.segments };
}

/** Parses `method`: one method, "*", or a list, sorted and de-duplicated as Encore does. */
function parseMethods(expr: ts.Expression): HttpMethod[] {
  const one = (e: ts.Expression): HttpMethod => {
    const m = stringLit(e);
    if (!METHOD_ORDER.includes(m as HttpMethod)) fail(e, "invalid method: invalid method", "endpoint-invalid-method");
    return m as HttpMethod;
  };
  if (ts.isStringLiteral(expr)) return expr.text === "*" ? [...ALL_METHODS] : [one(expr)];
  if (!ts.isArrayLiteralExpression(expr)) fail(expr, "invalid methods: must be string or array of strings", "endpoint-invalid-method");
  if (expr.elements.some((e) => ts.isStringLiteral(e) && e.text === "*")) {
    if (expr.elements.length > 1) fail(expr, "invalid methods: cannot mix * and other methods", "endpoint-invalid-method");
    return [...ALL_METHODS];
  }
  const set = new Set(expr.elements.map(one));
  return METHOD_ORDER.filter((m) => set.has(m));
}

/** Marks path-param fields "path" and checks each `:x` has a field x of a path-capable type. */
function placePathParams(pass: Pass, request: ObjectSchema | null, segments: Segment[], pathNode: ts.Node, call: ts.Node): void {
  const dynamic = segments.filter((s): s is Exclude<Segment, { kind: "literal" }> => s.kind !== "literal");
  if (dynamic.length === 0) return;
  if (request === null) fail(call, "request schema must be defined when having path parameters", "path-param-no-request");
  for (const seg of dynamic) {
    const field = request.fields.find((f) => f.name === seg.name);
    if (field === undefined) fail(pathNode, `path parameter not found in request schema (${seg.name})`, "path-param-missing");
    field.location = "path";
    field.wireName = field.name;
    const base = field.type.kind === "validated" ? field.type.base : field.type;
    if (seg.kind === "param" && !["string", "number", "bigint", "boolean"].includes(base.kind)) {
      pass.diags.error(pass.schemas.nodeOf(field, call), `unsupported path parameter type: ${describeSchema(base)}`, "path-param-type");
    }
  }
}

/** Whether a type can travel in a query string (validate_req_params). */
function queryCapable(t: TypeSchema): boolean {
  switch (t.kind) {
    case "object":
    case "map":
      return false;
    case "array":
      return queryCapable(t.elem);
    case "union":
      return t.types.every(queryCapable);
    case "validated":
      return queryCapable(t.base);
    default:
      return true;
  }
}

function checkRequestFields(pass: Pass, ep: EndpointModel, call: ts.Node): void {
  const hasQueryMethod = ep.methods.some((m) => BODYLESS.has(m));
  for (const f of ep.request?.fields ?? []) {
    const inQuery = f.location === "query" || (f.location === "default" && hasQueryMethod);
    if (inQuery && !queryCapable(f.type)) {
      pass.diags.error(pass.schemas.nodeOf(f, call), "type not supported for query parameters", "query-param-type");
    }
    reportValidation(pass, f, call);
  }
}

function checkResponseFields(pass: Pass, response: ObjectSchema | null, call: ts.Node): void {
  const statuses = (response?.fields ?? []).filter((f) => f.location === "httpstatus");
  if (statuses.length > 1) {
    pass.diags.error(pass.schemas.nodeOf(statuses[0], call), "http status can only be defined once per response type", "http-status-twice");
  }
  for (const f of response?.fields ?? []) reportValidation(pass, f, call);
}

/** Reports validation rules applied to types they cannot check (validate_validations). */
export function reportValidation(pass: Pass, f: FieldSchema, fallback: ts.Node): void {
  for (const msg of validationErrors(f.type)) pass.diags.error(pass.schemas.nodeOf(f, fallback), msg, "validation-unsupported-type");
}
