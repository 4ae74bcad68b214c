// From Encore's resolved types to the wire schemas the runtime uses, by the rules of
// tsparser/src/legacymeta/schema.rs (BuilderCtx::typ and interface), and the app-wide checks of
// tsparser/src/app/mod.rs on those types (validate_schema_type, validate_validations,
// validate_req_params). A named type is inlined where Encore declares it once; at the point a named
// type recurs into itself the schema here is `any` (the runtime's model has no references).
import type { FieldLocation, FieldSchema, TypeSchema, ValidationExpr } from "../../model/app-model";
import { simplifyExpr } from "../base/validation";
import { typeParamsOf } from "./objects";
import { basicDebug, genericDebug, exprDebug, ruleText, typeText } from "./render";
import type { TypeSystem } from "./system";
import { type Basic, type Field, type Type, isBasic } from "./typ";

/** A schema.rs `bail!`: the conversion stops with this message. */
export class SchemaBail extends Error {}

type Iface = Extract<Type, { t: "interface" }>;
type WireSpec = Extract<Type, { t: "wirespec" }>;

const LOCATIONS: Record<WireSpec["location"], FieldLocation> = {
  header: "header",
  query: "query",
  cookie: "cookie",
  httpstatus: "httpstatus",
  "pubsub-attr": "default",
};

/** schema.rs basic: the builtins the basic types are; the others have none. */
const BASIC_SCHEMAS: Partial<Record<Basic, "any" | "string" | "boolean" | "date" | "number" | "null" | "bigint">> = {
  any: "any",
  unknown: "any",
  string: "string",
  boolean: "boolean",
  Date: "date",
  number: "number",
  null: "null",
  bigint: "bigint",
};

/** types/utils.rs unwrap_promise: `Promise<T>` (the universe's) is T. */
export function unwrapPromise(sys: TypeSystem, t: Type): Type {
  if (t.t === "named" && t.obj.name === "Promise" && sys.state.isUniverse(t.obj.module.id) && t.args.length > 0) return t.args[0];
  return t;
}

/** types/utils.rs drop_empty_or_void: an empty object or void is no schema. */
export function dropEmptyOrVoid(t: Type): Type | null {
  if (t.t === "interface" && t.fields.length === 0 && t.index === null) return null;
  return isBasic(t, "void") ? null : t;
}

/** parseutil.rs resolve_interface: the interface a type is, through named types. */
export function resolveInterface(sys: TypeSystem, t: Type): Iface | null {
  const u = unwrapPromise(sys, t);
  if (u.t === "interface") return u;
  if (u.t === "named") return resolveInterface(sys, sys.underlying(u));
  return null;
}

/** encoding.rs resolve_wire_spec. */
export function wireSpecOf(t: Type): WireSpec | null {
  if (t.t === "wirespec") return t;
  if (t.t === "validated") return wireSpecOf(t.typ);
  return t.t === "optional" ? wireSpecOf(t.inner) : null;
}

/** app/mod.rs resolve_to_concrete. */
function toConcrete(sys: TypeSystem, t: Type): Type {
  if (t.t === "optional") return toConcrete(sys, t.inner);
  if (t.t === "validated") return toConcrete(sys, t.typ);
  return t.t === "named" ? toConcrete(sys, sys.underlying(t)) : t;
}

/** app/mod.rs validate_schema_type: null when the type may be a request or response. */
export function schemaTypeError(sys: TypeSystem, t: Type): string | null {
  const c = toConcrete(sys, t);
  if (c.t === "interface") {
    if (c.index !== null) return "type index is not supported in schema types";
    return c.call !== null ? "call signatures are not supported in schema types" : null;
  }
  return isBasic(c, "void") ? null : "request and response types must be interfaces or void";
}

/** app/mod.rs validate_req_params: what may travel in a query string. */
export function isQueryType(sys: TypeSystem, t: Type): boolean {
  const c = toConcrete(sys, t);
  switch (c.t) {
    case "basic":
    case "literal":
    case "enum":
    case "decimal":
      return true;
    case "array":
      return isQueryType(sys, c.elem);
    case "union":
      return c.types.every((x) => isQueryType(sys, x));
    case "wirespec":
      return c.location === "query" && isQueryType(sys, c.underlying);
    default:
      return false;
  }
}

/** validation.rs Rule::supports_type: a wire spec is transparent, nothing else is looked through. */
function ruleSupports(rule: Extract<ValidationExpr, { rule: string }>, t: Type): boolean {
  const typ = t.t === "wirespec" ? t.underlying : t;
  switch (rule.rule) {
    case "minLen":
    case "maxLen":
      return typ.t === "array" || isBasic(typ, "string");
    case "minValue":
    case "maxValue":
      return isBasic(typ, "number") || typ.t === "decimal";
    default:
      return isBasic(typ, "string");
  }
}

/** validation.rs Expr::supports_type: Encore's message for the rules that do not fit, or null. */
export function unsupportedValidation(expr: ValidationExpr, t: Type): string | null {
  const bad: string[] = [];
  const walk = (e: ValidationExpr): void => {
    if ("and" in e) e.and.forEach(walk);
    else if ("or" in e) e.or.forEach(walk);
    else if (!ruleSupports(e, t)) bad.push(`${ruleText(e)} cannot be applied to ${typeText(t)}`);
  };
  walk(expr);
  return bad.length === 0 ? null : `unsupported validation: ${bad.join(", ")}`;
}

/**
 * app/mod.rs validate_validations: every validation reachable from a schema must fit the type it is
 * on, and none may stand alone. Named types are followed once each, which resolves them too.
 */
export function validationProblems(sys: TypeSystem, root: Type): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  const visit = (t: Type): void => {
    switch (t.t) {
      case "validated": {
        const err = unsupportedValidation(t.expr, t.typ);
        if (err !== null) out.push(err);
        else visit(t.typ);
        return;
      }
      case "validation":
        out.push(`unsupported standalone validation expression: ${ruleText(t.expr)}`);
        return;
      case "named":
        if (!seen.has(t.obj.id)) {
          seen.add(t.obj.id);
          visit(sys.underlying(t));
        }
        t.args.forEach(visit);
        return;
      case "array":
        return visit(t.elem);
      case "interface":
        return t.fields.forEach((f) => visit(f.typ));
      case "union":
      case "tuple":
        return t.types.forEach(visit);
      case "optional":
        return visit(t.inner);
      case "wirespec":
        return visit(t.underlying);
      case "function":
        t.params.forEach((p) => visit(p.typ));
        return visit(t.ret);
      case "generic":
        return genericChildren(t.generic).forEach(visit);
      default:
        return;
    }
  };
  visit(root);
  return out;
}

function genericChildren(g: Extract<Type, { t: "generic" }>["generic"]): Type[] {
  switch (g.g) {
    case "type-param":
      return g.constraint !== null ? [g.constraint] : [];
    case "index":
      return [g.source, g.index];
    case "mapped":
      return g.asType !== null ? [g.inType, g.valueType, g.asType] : [g.inType, g.valueType];
    case "keyof":
      return [g.source];
    case "conditional":
      return [g.check, g.extends, g.whenTrue, g.whenFalse];
    case "intersection":
      return [g.x, g.y];
    default:
      return [];
  }
}

/** legacymeta/schema.rs drop_undefined_union: `T | undefined` is an optional T. */
function dropUndefined(t: Type): [Type, boolean] {
  if (t.t !== "union") return [t, false];
  const i = t.types.findIndex((x) => isBasic(x, "undefined"));
  if (i < 0) return [t, false];
  if (t.types.length === 2) return [t.types[1 - i], true];
  // Vec::swap_remove: the last member takes the removed one's place.
  const types = [...t.types];
  types[i] = types[types.length - 1];
  types.pop();
  return [{ t: "union", types }, true];
}

/** Converts resolved types to wire schemas (legacymeta/schema.rs BuilderCtx). */
export class SchemaBuilder {
  private readonly inProgress = new Set<number>();

  constructor(
    private readonly sys: TypeSystem,
    /** Where schema.rs's span-less HANDLER errors land. */
    private readonly reportUnplaced: (message: string) => void,
  ) {}

  /** BuilderCtx::typ. Throws SchemaBail. */
  typ(t: Type): TypeSchema {
    switch (t.t) {
      case "basic":
        return this.basic(t.basic);
      case "array":
        return { kind: "array", elem: this.typ(t.elem) };
      case "interface":
        return this.iface(t);
      case "enum":
        return { kind: "union", types: t.members.map((m) => ({ kind: "literal", value: m.value.value })) };
      case "union":
        return { kind: "union", types: t.types.map((x) => this.typ(x)) };
      case "tuple":
        throw new SchemaBail("tuple types are not yet supported in schemas");
      case "literal":
        // A bigint literal travels as its digits (Literal::BigInt becomes a string literal).
        return { kind: "literal", value: t.lit.value };
      case "class":
        throw new SchemaBail("class types are not yet supported in schemas");
      case "named":
        return this.named(t);
      case "optional":
        throw new SchemaBail("optional types are not yet supported in schemas");
      case "this":
        throw new SchemaBail("this types are not yet supported in schemas");
      case "generic":
        if (t.generic.g === "type-param") throw new SchemaBail("missing decl_id");
        throw new SchemaBail(`unresolved generic types are not supported in schemas, got: ${genericDebug(t.generic)}`);
      case "validation":
        throw new SchemaBail(`unresolved standalone validation expression not supported in api schema: ${exprDebug(t.expr)}`);
      case "validated":
        return { kind: "validated", base: this.typ(t.typ), expr: simplifyExpr(t.expr) };
      case "wirespec":
        return this.typ(t.underlying);
      case "decimal":
        return { kind: "decimal" };
      case "function":
        throw new SchemaBail("function types are not supported in schemas");
    }
  }

  private basic(b: Basic): TypeSchema {
    const kind = BASIC_SCHEMAS[b];
    if (kind !== undefined) return { kind };
    this.reportUnplaced(`unsupported basic type in schema: ${basicDebug(b)}`);
    return { kind: "any" };
  }

  /** A universe or generic named type is its underlying type; any other is declared once (inlined here). */
  private named(t: Extract<Type, { t: "named" }>): TypeSchema {
    if (this.sys.state.isUniverse(t.obj.module.id) || typeParamsOf(t.obj).length > 0) return this.typ(this.sys.underlying(t));
    // Encore converts the type arguments too, even of a non-generic reference.
    t.args.forEach((a) => this.typ(a));
    if (this.inProgress.has(t.obj.id)) return { kind: "any" };
    this.inProgress.add(t.obj.id);
    try {
      return this.typ(this.sys.declaredType(t.obj));
    } finally {
      this.inProgress.delete(t.obj.id);
    }
  }

  private iface(t: Iface): TypeSchema {
    if (t.index !== null) {
      if (t.fields.length > 0) throw new SchemaBail("index signature with additional fields is not supported");
      this.typ(t.index[0]);
      return { kind: "map", value: this.typ(t.index[1]) };
    }
    return { kind: "object", fields: this.fields(t) };
  }

  /** BuilderCtx::interface's fields: optional from `?` or `| undefined`, wire specs, field validation. */
  fields(t: Iface): FieldSchema[] {
    return t.fields.map((f) => this.field(f));
  }

  private field(f: Field): FieldSchema {
    const [tt, hadUndefined] = dropUndefined(f.typ);
    const [inner, expr] = tt.t === "validated" ? [tt.typ, tt.expr] : [tt, null];
    const spec = wireSpecOf(inner);
    let type = spec !== null ? this.typ(spec.underlying) : this.typ(inner);
    // The field's own validation is attached as written (not simplified), replacing any inner one.
    if (expr !== null) type = { kind: "validated", base: type.kind === "validated" ? type.base : type, expr };
    return {
      name: f.name,
      wireName: spec !== null && spec.location !== "httpstatus" ? (spec.name ?? f.name) : f.name,
      optional: f.optional || hadUndefined,
      location: spec !== null ? LOCATIONS[spec.location] : "default",
      type,
    };
  }
}
