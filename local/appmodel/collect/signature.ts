// Request/response types of handlers: from the handler's annotations, else from the call's type
// arguments (api.rs parse_endpoint_signature, authhandler.rs parse_auth_handler_signature).
import ts from "typescript";
import { ParseFailure } from "../diagnostics";
import { resolveAlias } from "../encore-refs";
import type { ObjectSchema } from "../model";
import type { Pass } from "../pass";

export interface HandlerTypes {
  req: ts.TypeNode | undefined;
  resp: ts.TypeNode | undefined;
}

/**
 * The first parameter's annotation and the return annotation of an inline handler, each falling
 * back to the call's type arguments. A handler passed by name has no annotations to read here.
 */
export function handlerTypes(call: ts.CallExpression, handler: ts.Expression | undefined, typeParamsMessage: string): HandlerTypes {
  let req: ts.TypeNode | undefined;
  let resp: ts.TypeNode | undefined;
  if (handler !== undefined && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler))) {
    if (handler.typeParameters !== undefined) throw new ParseFailure(handler, typeParamsMessage, "handler-type-parameters");
    req = handler.parameters[0]?.type;
    resp = handler.type;
  }
  return { req: req ?? call.typeArguments?.[0], resp: resp ?? call.typeArguments?.[1] };
}

/** `Promise<T>` (the global one) becomes T; anything else is returned as is (unwrap_promise). */
export function unwrapPromise(pass: Pass, node: ts.TypeNode): ts.TypeNode {
  if (!ts.isTypeReferenceNode(node) || node.typeArguments?.length !== 1) return node;
  const nameNode = ts.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName;
  const sym = pass.checker.getSymbolAtLocation(nameNode);
  const decl = sym && resolveAlias(sym, pass.checker).declarations?.[0];
  if (decl === undefined || sym?.name !== "Promise" || !pass.program.isSourceFileDefaultLibrary(decl.getSourceFile())) return node;
  return node.typeArguments[0];
}

/**
 * The object schema a request/response annotation denotes, or null for void. With
 * `dropEmpty` an empty object literal type also gives null (Encore's drop_empty_or_void for
 * responses). Non-object types are Encore's "must be interfaces or void" error.
 */
export function objectSchemaOf(pass: Pass, written: ts.TypeNode, dropEmpty: boolean): ObjectSchema | null {
  const node = unwrapPromise(pass, written);
  const type = pass.checker.getTypeFromTypeNode(node);
  if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return null;
  if (dropEmpty && ts.isTypeLiteralNode(node) && node.members.length === 0) return null;
  const err = pass.schemas.objectTypeError(type);
  if (err !== null) throw new ParseFailure(node, err, "schema-not-object");
  return pass.schemas.objectSchema(type, node);
}
