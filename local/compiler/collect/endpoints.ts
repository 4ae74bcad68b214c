// `export const x = api({...}, handler)`, `api.raw(...)` and `api.static({...})` (apis/api.rs, apis/encoding.rs).
import ts from "typescript";
import { bindName, enclosingVariable, isDirectInitializer, isExportedTopLevel } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import type { EncoreRef } from "../base/encore-refs";
import { boolLit, isNullLit, parseConfigObject, stringArrayLit, stringLit, unsignedLit } from "../base/literal";
import type { EndpointModel, HttpMethod } from "../../model/app-model";
import { type Pass, locOf, parseEach, requireService } from "./pass";
import { type Segment, parsePath } from "../base/respath";
import { typeDebug } from "../types/render";
import { dropEmptyOrVoid, isQueryType, unsupportedValidation, unwrapPromise, wireSpecOf } from "../types/schema";
import type { Field } from "../types/typ";
import { type HandlerTypes, checkSchemaType, convertFields, handlerTypes, interfaceOf, resolveSchema } from "./signature";
import { docComment } from "../base/doc";
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
/** api.rs Method::supports_body: the methods whose default field place is the body, not the query string. */
const BODY_METHODS = new Set<HttpMethod>(["POST", "PUT", "PATCH", "CONNECT"]);
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
    describeSchemas(pass, model, types, parsed.segments, pathNode ?? configArg, call);
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

/**
 * encoding.rs describe_endpoint and what app/mod.rs then checks: the request's fields (path
 * parameters first, each of a type a path can carry), the response's, query-string types, one
 * HttpStatus, the schema types themselves and their validations.
 */
function describeSchemas(
  pass: Pass,
  model: EndpointModel,
  types: HandlerTypes,
  segments: Segment[],
  pathNode: ts.Node,
  call: ts.Node,
): void {
  const req = types.req === undefined ? null : resolveSchema(pass, types.req);
  const written = types.resp === undefined ? null : resolveSchema(pass, types.resp);
  const respTyp = written === null ? null : dropEmptyOrVoid(unwrapPromise(pass.types, written.typ));
  const resp = written === null || respTyp === null ? null : { typ: respTyp, node: written.node };

  const dynamic = segments.filter((s): s is Exclude<Segment, { kind: "literal" }> => s.kind !== "literal");
  if (req === null && dynamic.length > 0) fail(call, "request schema must be defined when having path parameters", "path-param-no-request");
  const reqIface = req === null ? null : interfaceOf(pass, req);
  const reqFields = reqIface?.fields ?? [];
  const pathFields = dynamic.map((seg) => {
    const f = reqFields.find((x) => x.name === seg.name);
    if (f === undefined) fail(pathNode, "path parameter not found in request schema", "path-param-missing");
    return f;
  });
  const respIface = resp === null ? null : interfaceOf(pass, resp);
  for (const f of pathFields) checkPathParamType(f, call);

  // The request's other fields travel by their wire spec, else in the query string for methods without a body.
  const queryByDefault = model.methods.some((m) => !BODY_METHODS.has(m));
  for (const f of reqFields) {
    if (pathFields.includes(f)) continue;
    const spec = wireSpecOf(f.typ);
    const inQuery = spec === null ? queryByDefault : spec.location === "query";
    if (inQuery && !isQueryType(pass.types, f.typ))
      pass.diags.error(f.node ?? call, "type not supported for query parameters", "query-param-type");
  }
  const statuses = (respIface?.fields ?? []).filter((f) => wireSpecOf(f.typ)?.location === "httpstatus");
  if (statuses.length > 1) {
    pass.diags.error(statuses[0].node ?? call, "http status can only be defined once per response type", "http-status-twice");
  }
  if (req !== null) checkSchemaType(pass, req);
  if (resp !== null) checkSchemaType(pass, resp);

  // legacymeta/schema.rs: the wire schemas, path parameters placed in the path.
  const reqSchema = req === null ? [] : convertFields(pass, req, reqIface);
  for (const f of reqSchema) {
    if (!pathFields.some((p) => p.name === f.name)) continue;
    f.location = "path";
    f.wireName = f.name;
  }
  model.request = req === null || reqIface === null ? null : { fields: reqSchema };
  model.response = resp === null ? null : { fields: convertFields(pass, resp, respIface) };
}

/** encoding.rs rewrite_path_types: a path parameter is a string, boolean, number or bigint, validated as it allows. */
function checkPathParamType(f: Field, call: ts.Node): void {
  const [typ, expr] = f.typ.t === "validated" ? [f.typ.typ, f.typ.expr] : [f.typ, null];
  if (expr !== null) {
    const err = unsupportedValidation(expr, typ);
    if (err !== null) fail(f.node ?? call, err, "validation-unsupported-type");
  }
  if (!(typ.t === "basic" && ["string", "boolean", "number", "bigint"].includes(typ.basic))) {
    fail(f.node ?? call, `unsupported path parameter type: ${typeDebug(typ)}`, "path-param-type");
  }
}
