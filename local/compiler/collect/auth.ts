// `authHandler<Params, Data>(...)` and `new Gateway({ authHandler })` (apis/authhandler.rs, gateway.rs).
import ts from "typescript";
import { bindName, declarationOf, enclosingVariable, isExportedTopLevel } from "../base/bind";
import { ParseFailure, attempt } from "../base/diagnostics";
import { parseConfigObject } from "../base/literal";
import type { AuthHandlerModel, GatewayModel } from "../../model/app-model";
import { type Pass, isNew, locOf, parseEach, requireService } from "./pass";
import { unwrapPromise, wireSpecOf } from "../types/schema";
import { convertFields, handlerTypes, interfaceOf, objectFields, resolveSchema, schemaOf } from "./signature";

export interface AuthDecl {
  model: AuthHandlerModel;
  node: ts.CallExpression;
  decl: ts.VariableDeclaration;
}

export interface GatewayDecl {
  /** null when the Gateway is not an exported top-level variable (Encore never loads it). */
  model: GatewayModel | null;
  node: ts.NewExpression;
  /** The auth handler it names, if it names one we know. */
  authHandler: AuthDecl | null;
}

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

/** The auth handlers, plus the variables of every authHandler() call (valid or not). */
export function collectAuthHandlers(pass: Pass): { handlers: AuthDecl[]; bindings: Set<ts.Node> } {
  const out: AuthDecl[] = [];
  const bindings = new Set<ts.Node>();
  for (const file of pass.files) {
    for (const ref of file.refs) {
      if (ref.name !== "authHandler" || ref.member !== null || !ts.isCallExpression(ref.expr)) continue;
      const call = ref.expr;
      const binding = enclosingVariable(call);
      if (binding !== null) bindings.add(binding);
      const a = attempt(pass.diags, () => parseAuthHandler(pass, call, file.rel));
      if (a === undefined) continue;
      if (out.length > 0) {
        pass.diags.error(call, "only one auth handler can be defined per application", "auth-handler-twice");
      } else out.push(a);
    }
  }
  return { handlers: out, bindings };
}

function parseAuthHandler(pass: Pass, call: ts.CallExpression, rel: string): AuthDecl {
  const decl = enclosingVariable(call);
  if (decl === null) fail(call, "auth handler must be bound to a variable", "auth-handler-not-bound");
  const name = bindName(decl).text;
  const handler = call.arguments[0];
  if (handler === undefined) fail(call, "auth handler must have a handler function as its first argument", "auth-handler-invalid");
  const types = handlerTypes(call, handler, "auth handler cannot have type parameters");
  if (types.req === undefined) fail(call, "auth handler must have an explicitly defined parameter type", "auth-handler-invalid");
  if (types.resp === undefined) fail(call, "auth handler must have an explicitly defined result type", "auth-handler-invalid");
  const service = requireService(pass, call, `auth handler ${name}`);

  // authhandler.rs: every parameter must be a Header, Query or Cookie (any wire spec).
  const req = resolveSchema(pass, types.req);
  const written = resolveSchema(pass, types.resp);
  const iface = interfaceOf(pass, req);
  for (const f of iface?.fields ?? []) {
    if (wireSpecOf(f.typ) === null) {
      fail(f.node ?? call, "authHandler parameter type can only consist of Query and Header fields", "auth-params-not-wire");
    }
  }
  // legacymeta/mod.rs converts the parameters and the (unwrapped) auth data type.
  schemaOf(pass, req);
  const params = { fields: convertFields(pass, req, iface) };
  const data = { typ: unwrapPromise(pass.types, written.typ), node: written.node };
  const authData = objectFields(schemaOf(pass, data));
  const userID = authData?.fields.find((f) => f.name === "userID");
  if (authData === null || userID === undefined || userID.type.kind !== "string") {
    // Our own rule: Encore's runtime treats auth data without userID as unauthenticated.
    fail(
      types.resp,
      "auth data must have a `userID: string` field (Encore treats auth data without one as unauthenticated; this runtime's rule)",
      "auth-data-no-userid",
    );
  }
  return {
    model: { name, file: rel, service: service.name, loc: locOf(pass, call), params, authData },
    node: call,
    decl,
  };
}

/** The Gateways; `authBindings` are all authHandler() variables, so a broken one is not "unresolved" too. */
export function collectGateways(pass: Pass, handlers: AuthDecl[], authBindings: Set<ts.Node>): GatewayDecl[] {
  return parseEach(pass, isNew("Gateway"), (r, rel) => parseGateway(pass, r.expr as ts.NewExpression, rel, handlers, authBindings));
}

function parseGateway(pass: Pass, expr: ts.NewExpression, rel: string, handlers: AuthDecl[], authBindings: Set<ts.Node>): GatewayDecl {
  const configArg = expr.arguments?.[0];
  if (configArg === undefined) fail(expr, "missing config object", "config-expected-object-literal");
  const cfg = parseConfigObject(configArg, ["authHandler"]);
  let authHandler: AuthDecl | null = null;
  const handlerExpr = cfg.get("authHandler")?.value;
  if (handlerExpr !== undefined) {
    const target = declarationOf(handlerExpr, pass.checker);
    authHandler = handlers.find((h) => h.decl === target) ?? null;
    if (authHandler === null && (target === null || !authBindings.has(target))) {
      fail(handlerExpr, "cannot resolve auth handler", "gateway-auth-handler-unresolved");
    }
  }
  const service = requireService(pass, expr, "Gateway");
  const decl = enclosingVariable(expr);
  const exported = decl !== null && ts.isIdentifier(decl.name) && isExportedTopLevel(decl);
  return {
    model: exported ? { name: (decl.name as ts.Identifier).text, file: rel, service: service.name, loc: locOf(pass, expr) } : null,
    node: expr,
    authHandler,
  };
}
