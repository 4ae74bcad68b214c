// Request/response types of handlers (api.rs parse_endpoint_signature, authhandler.rs
// parse_auth_handler_signature) and what Encore does with a resolved schema type: its fields
// (encoding.rs iface_fields), the app-wide checks (app/mod.rs validate_schema_type and
// validate_validations) and the conversion to a wire schema (legacymeta/schema.rs).
import ts from "typescript";
import { ParseFailure } from "../base/diagnostics";
import type { FieldSchema, ObjectSchema, TypeSchema } from "../../model/app-model";
import type { Pass } from "./pass";
import { typeDebug } from "../types/render";
import { SchemaBail, resolveInterface, schemaTypeError, unwrapPromise, validationProblems } from "../types/schema";
import { EncorePanic, type Type, isBasic } from "../types/typ";

type Iface = Extract<Type, { t: "interface" }>;

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

/** A resolved schema type and the annotation it was written as (Encore's Sp<Type>). */
export interface SchemaType {
  typ: Type;
  node: ts.TypeNode;
}

/** TypeChecker::resolve_type on an annotation. */
export function resolveSchema(pass: Pass, node: ts.TypeNode): SchemaType {
  return { typ: atSchema(pass, node, () => pass.types.resolve(node)), node };
}

/**
 * encoding.rs iface_fields: the interface a request/response/auth-params type is (through named
 * types and a Promise), null for void; anything else ends the resource with Encore's "expected
 * named interface type".
 */
export function interfaceOf(pass: Pass, s: SchemaType): Iface | null {
  const typ = unwrapPromise(pass.types, s.typ);
  if (isBasic(typ, "void")) return null;
  const iface = atSchema(pass, s.node, () => resolveInterface(pass.types, typ));
  if (iface === null) throw new ParseFailure(s.node, `expected named interface type, found ${typeDebug(typ)}`, "schema-not-object");
  return iface;
}

/** legacymeta/schema.rs on an interface's fields. */
export function convertFields(pass: Pass, s: SchemaType, iface: Iface | null): FieldSchema[] {
  return iface === null ? [] : atSchema(pass, s.node, () => pass.schemas.fields(iface));
}

/** app/mod.rs validate_schema_type and validate_validations, reported at the annotation as Encore does. */
export function checkSchemaType(pass: Pass, s: SchemaType): void {
  const err = atSchema(pass, s.node, () => schemaTypeError(pass.types, s.typ));
  if (err !== null) pass.diags.error(s.node, err, "schema-not-object");
  checkValidations(pass, s);
}

/** app/mod.rs validate_validations alone (what Pub/Sub messages get). */
export function checkValidations(pass: Pass, s: SchemaType): void {
  for (const msg of atSchema(pass, s.node, () => validationProblems(pass.types, s.typ))) {
    pass.diags.error(s.node, msg, msg.startsWith("unsupported standalone") ? "validation-standalone" : "validation-unsupported-type");
  }
}

/** legacymeta/schema.rs on a whole type, its `bail!` reported at the annotation with an optional prefix. */
export function schemaOf(pass: Pass, s: SchemaType, prefix = ""): TypeSchema {
  return atSchema(pass, s.node, () => pass.schemas.typ(s.typ), prefix);
}

/** The fields of a converted type, for resources whose runtime model needs an object. */
export function objectFields(schema: TypeSchema): ObjectSchema | null {
  return schema.kind === "object" ? { fields: schema.fields } : null;
}

/**
 * Runs one step on a schema with its annotation as the place for errors Encore gives no position;
 * schema.rs's `bail!` and Encore's crashes end the resource there.
 */
function atSchema<T>(pass: Pass, node: ts.TypeNode, fn: () => T, prefix = ""): T {
  try {
    return pass.types.at(node, fn);
  } catch (err) {
    if (err instanceof SchemaBail) throw new ParseFailure(node, prefix + err.message, "schema-unsupported-type");
    if (err instanceof EncorePanic) throw new ParseFailure(node, err.message, "encore-panic");
    throw err;
  }
}
