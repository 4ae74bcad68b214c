// Turns TypeScript types into wire schemas the way Encore's parser sees them.
//
// The checker alone is not enough: Header<"X"> resolves to plain `string` and
// `string & (IsEmail | IsURL)` is distributed into a union, so the marker types Encore keys on are
// erased. We therefore read the written type (the TypeNode) wherever it describes the very type
// the checker computed, and fall back to the checker's type otherwise (generic instantiations,
// mapped types, ...). Known gaps: validation written inside a generic type's parameters is lost
// when instantiated; a recursive type becomes `any` at the point where it recurs.
import ts from "typescript";
import { ParseFailure } from "./diagnostics";
import { encoreModuleOf, resolveAlias } from "./encore-refs";
import type { FieldLocation, FieldSchema, ObjectSchema, TypeSchema, ValidationExpr } from "./model";
import { andExpr, describeExpr, orExpr, simplifyExpr, unsupportedValidation } from "./validation";

/** Where a top-level field travels, from Header<...>/Query<...>/Cookie<...>/HttpStatus. */
interface WireSpec {
  location: FieldLocation;
  /** The explicit wire name, or null to use the field name. */
  name: string | null;
  type: TypeSchema;
}

/** Lib interfaces Encore's type universe models as classes, which schemas reject. */
const CLASS_LIKE = new Set([
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "RegExp",
  "Error",
  "Promise",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "Buffer",
]);

const VALIDATION_RULES = new Set(["Min", "Max", "MinLen", "MaxLen", "StartsWith", "EndsWith", "MatchesRegexp", "IsEmail", "IsURL"]);

function fail(node: ts.Node, message: string, rule = "schema-unsupported-type"): never {
  throw new ParseFailure(node, message, rule);
}

/** Converts types to schemas against one program; throws ParseFailure on unsupported types. */
export class SchemaBuilder {
  private readonly typeStack = new Set<ts.Type>();
  private readonly aliasStack = new Set<ts.Declaration>();
  private readonly fieldNodes = new WeakMap<FieldSchema, ts.Node>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
  ) {}

  /**
   * Whether a type is a request/response object. Returns Encore's error message when it is not
   * (app/mod.rs validate_schema_type), or null when it is.
   */
  objectTypeError(type: ts.Type): string | null {
    if ((type as { intrinsicName?: string }).intrinsicName === "error") {
      return "cannot resolve this type: the analyzer follows only the app's own files and encore.dev (a limit of this runtime)";
    }
    const kind = type.flags & ts.TypeFlags.Object ? this.objectKind(type) : null;
    if (kind === "function") return "call signatures are not supported in schema types";
    if (kind === "plain") {
      return this.checker.getIndexInfosOfType(type).length > 0 ? "type index is not supported in schema types" : null;
    }
    if (type.flags & ts.TypeFlags.Intersection && (type as ts.IntersectionType).types.every((t) => t.flags & ts.TypeFlags.Object)) {
      return null;
    }
    return "request and response types must be interfaces or void";
  }

  /** A top-level object (request, response, message, auth params): fields with wire locations. */
  objectSchema(type: ts.Type, at: ts.Node): ObjectSchema {
    return { fields: this.fields(type, at, true) };
  }

  /** Where a top-level field was declared, for error messages. */
  nodeOf(field: FieldSchema, fallback: ts.Node): ts.Node {
    return this.fieldNodes.get(field) ?? fallback;
  }

  private fields(type: ts.Type, at: ts.Node, topLevel: boolean): FieldSchema[] {
    const out: FieldSchema[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      if (prop.escapedName.toString().startsWith("__@")) continue; // symbol-keyed, e.g. validation brands
      const decl = prop.declarations?.[0];
      const declared = decl !== undefined && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) ? decl.type : undefined;
      const propType = this.checker.getTypeOfSymbol(prop);
      const node = declared !== undefined && this.sameType(declared, propType) ? declared : undefined;
      const fieldAt = decl ?? at;
      let optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const [stripped, strippedNode, hadUndefined] = this.stripUndefined(propType, node);
      optional ||= hadUndefined;
      const wire = topLevel && strippedNode !== undefined ? this.wireSpec(strippedNode, fieldAt) : null;
      const fieldType = wire !== null ? wire.type : this.convert(stripped, strippedNode, fieldAt);
      const field: FieldSchema = {
        name: prop.name,
        wireName: wire?.name ?? prop.name,
        optional,
        location: wire?.location ?? "default",
        type: finalize(fieldType),
      };
      this.fieldNodes.set(field, fieldAt);
      out.push(field);
    }
    return out;
  }

  /** Whether a written type node describes exactly the checker's type (ignoring `undefined`). */
  private sameType(node: ts.TypeNode, type: ts.Type): boolean {
    const ids = (t: ts.Type): Set<ts.Type> =>
      new Set((t.flags & ts.TypeFlags.Union ? (t as ts.UnionType).types : [t]).filter((m) => !(m.flags & ts.TypeFlags.Undefined)));
    const a = ids(this.checker.getTypeFromTypeNode(node));
    const b = ids(type);
    return a.size === b.size && [...a].every((t) => b.has(t));
  }

  /** Drops `undefined` from a union (an optional field), returning whether it was there. */
  private stripUndefined(type: ts.Type, node: ts.TypeNode | undefined): [ts.Type, ts.TypeNode | undefined, boolean] {
    if (!(type.flags & ts.TypeFlags.Union)) return [type, node, false];
    const rest = (type as ts.UnionType).types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
    if (rest.length === (type as ts.UnionType).types.length) return [type, node, false];
    let restNode = node;
    if (node !== undefined && ts.isUnionTypeNode(node)) {
      const kept = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword);
      if (kept.length === 1) restNode = kept[0];
    }
    // With several members left, the union paths below skip `undefined` themselves.
    return [rest.length === 1 ? rest[0] : type, restNode, true];
  }

  // ---- the written form -------------------------------------------------------------------

  /** Header<...>, Query<...>, Cookie<...> or HttpStatus on a top-level field, else null. */
  private wireSpec(node: ts.TypeNode, at: ts.Node): WireSpec | null {
    if (ts.isParenthesizedTypeNode(node)) return this.wireSpec(node.type, at);
    if (ts.isIntersectionTypeNode(node)) {
      // `Header<"X"> & MinLen<3>`: the spec carries the validation.
      const specs = node.types.map((t) => (this.isValidationNode(t) ? null : this.wireSpec(t, at)));
      const idx = specs.findIndex((s) => s !== null);
      if (idx < 0) return null;
      const exprs = node.types.flatMap((t, i) => {
        if (i === idx) return [];
        if (!this.isValidationNode(t)) fail(t, "wire specs can only be combined with validation rules");
        return [this.validationExpr(t)];
      });
      const spec = specs[idx] as WireSpec;
      return exprs.length === 0 ? spec : { ...spec, type: { kind: "validated", base: spec.type, expr: exprs.reduce(andExpr) } };
    }
    if (!ts.isTypeReferenceNode(node)) return null;
    const target = this.refTarget(node);
    if (target === null || target.module !== "encore.dev/api") return null;
    const args = node.typeArguments ?? [];
    const location = ({ Header: "header", Query: "query", Cookie: "cookie", HttpStatus: "httpstatus" } as const)[target.name];
    if (location === undefined) return null;
    if (location === "httpstatus") {
      if (args.length > 0) fail(node, "HttpStatus doesn't take generic type parameters");
      return { location, name: null, type: { kind: "number" } };
    }
    if (args.length === 0) return { location, name: null, type: { kind: "string" } };
    if (args.length === 1) {
      const lit = this.stringLiteralOf(args[0]);
      if (lit !== null) return { location, name: lit, type: { kind: "string" } };
      return { location, name: null, type: this.fromNode(args[0], at) };
    }
    const name = this.stringLiteralOf(args[1]);
    if (name === null) fail(args[1], "expected a string literal as the second type argument");
    return { location, name, type: this.fromNode(args[0], at) };
  }

  private stringLiteralOf(node: ts.TypeNode): string | null {
    const t = this.checker.getTypeFromTypeNode(node);
    return t.flags & ts.TypeFlags.StringLiteral ? (t as ts.StringLiteralType).value : null;
  }

  /** The declaration a type reference names, with its encore.dev module if it has one. */
  private refTarget(node: ts.TypeReferenceNode): { name: string; module: string | null; decl: ts.Declaration; lib: boolean } | null {
    const nameNode = ts.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName;
    const sym = this.checker.getSymbolAtLocation(nameNode);
    if (sym === undefined) return null;
    const target = resolveAlias(sym, this.checker);
    const decl = target.declarations?.[0];
    if (decl === undefined) return null;
    return {
      name: target.name,
      module: encoreModuleOf(decl),
      decl,
      lib: this.program.isSourceFileDefaultLibrary(decl.getSourceFile()),
    };
  }

  /** Whether a node is a pure encore.dev/validate expression (MinLen<3>, IsEmail | IsURL). */
  private isValidationNode(node: ts.TypeNode): boolean {
    if (ts.isParenthesizedTypeNode(node)) return this.isValidationNode(node.type);
    if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) return node.types.every((t) => this.isValidationNode(t));
    if (!ts.isTypeReferenceNode(node)) return false;
    const target = this.refTarget(node);
    return target !== null && target.module === "encore.dev/validate" && VALIDATION_RULES.has(target.name);
  }

  /** The validation expression a pure validation node denotes (parse_validation). */
  private validationExpr(node: ts.TypeNode): ValidationExpr {
    if (ts.isParenthesizedTypeNode(node)) return this.validationExpr(node.type);
    if (ts.isUnionTypeNode(node)) return node.types.map((t) => this.validationExpr(t)).reduce(orExpr);
    if (ts.isIntersectionTypeNode(node)) return node.types.map((t) => this.validationExpr(t)).reduce(andExpr);
    const ref = node as ts.TypeReferenceNode;
    const name = (this.refTarget(ref) as { name: string }).name;
    const arg = ref.typeArguments?.[0];
    const argType = arg && this.checker.getTypeFromTypeNode(arg);
    const num = argType && argType.flags & ts.TypeFlags.NumberLiteral ? (argType as ts.NumberLiteralType).value : null;
    const str = argType && argType.flags & ts.TypeFlags.StringLiteral ? (argType as ts.StringLiteralType).value : null;
    const need = (ok: boolean, what: string): void => {
      if (!ok) fail(node, `${name} requires a ${what} literal as its first type argument`, "validation-invalid-argument");
    };
    switch (name) {
      case "Min":
        need(num !== null, "number");
        return { rule: "minValue", value: num as number };
      case "Max":
        need(num !== null, "number");
        return { rule: "maxValue", value: num as number };
      case "MinLen":
        need(num !== null && Number.isInteger(num) && num >= 0, "number");
        return { rule: "minLen", value: num as number };
      case "MaxLen":
        need(num !== null && Number.isInteger(num) && num >= 0, "number");
        return { rule: "maxLen", value: num as number };
      case "StartsWith":
        need(str !== null, "string");
        return { rule: "startsWith", value: str as string };
      case "EndsWith":
        need(str !== null, "string");
        return { rule: "endsWith", value: str as string };
      case "MatchesRegexp":
        need(str !== null, "string");
        return { rule: "matchesRegexp", value: str as string };
      case "IsEmail":
        return { rule: "isEmail" };
      default:
        return { rule: "isURL" };
    }
  }

  /** Converts a type, reading its written form when that form describes it exactly. */
  private convert(type: ts.Type, node: ts.TypeNode | undefined, at: ts.Node): TypeSchema {
    return node !== undefined ? this.fromNode(node, at) : this.fromType(type, at);
  }

  /** Converts a written type; anything without special meaning goes through the checker. */
  private fromNode(node: ts.TypeNode, at: ts.Node): TypeSchema {
    if (ts.isParenthesizedTypeNode(node)) return this.fromNode(node.type, at);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) return this.fromNode(node.type, at);
    if (ts.isArrayTypeNode(node)) return { kind: "array", elem: this.fromNode(node.elementType, at) };
    if (ts.isTupleTypeNode(node)) fail(node, "tuple types are not yet supported in schemas");
    if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node)) fail(node, "function types are not supported in schemas");
    if (this.isValidationNode(node)) {
      fail(node, `unsupported standalone validation expression: ${describeExpr(this.validationExpr(node))}`, "validation-standalone");
    }
    if (ts.isIntersectionTypeNode(node)) return this.intersectionNode(node, at);
    if (ts.isUnionTypeNode(node)) {
      const members = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword).map((t) => this.fromNode(t, at));
      return unionOf(members);
    }
    if (ts.isTypeReferenceNode(node)) {
      const special = this.referenceNode(node, at);
      if (special !== null) return special;
      // Node's globals (Buffer) are not loaded; Encore's type universe treats them as classes.
      const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
      if (CLASS_LIKE.has(name) && this.refTarget(node) === null) fail(node, `class types are not yet supported in schemas (${name})`);
    }
    return this.fromType(this.checker.getTypeFromTypeNode(node), node);
  }

  /** `base & Rule<..> & ...`: a validated base, rules combined left to right (intersect()). */
  private intersectionNode(node: ts.IntersectionTypeNode, at: ts.Node): TypeSchema {
    const rest = node.types.filter((t) => !this.isValidationNode(t));
    if (rest.length === node.types.length) return this.fromType(this.checker.getTypeFromTypeNode(node), node);
    let base: TypeSchema | null = null;
    if (rest.length > 1) {
      const whole = this.fromType(this.checker.getTypeFromTypeNode(node), node);
      base = whole.kind === "validated" ? whole.base : whole;
    }
    const exprs: ValidationExpr[] = [];
    for (const t of node.types) {
      if (this.isValidationNode(t)) exprs.push(this.validationExpr(t));
      else if (rest.length === 1) {
        const s = this.fromNode(t, at);
        if (s.kind === "validated") {
          exprs.push(s.expr);
          base = s.base;
        } else base = s;
      }
    }
    return { kind: "validated", base: base as TypeSchema, expr: exprs.reduce(andExpr) };
  }

  /** Type references with a meaning of their own, or null to let the checker decide. */
  private referenceNode(node: ts.TypeReferenceNode, at: ts.Node): TypeSchema | null {
    const target = this.refTarget(node);
    if (target === null) return null;
    const args = node.typeArguments ?? [];
    if (target.module === "encore.dev/api" && ["Header", "Query", "Cookie", "HttpStatus"].includes(target.name)) {
      // Wire specs below the top level are plain fields of their underlying type.
      const spec = this.wireSpec(node, at) as WireSpec;
      return spec.type;
    }
    if (target.module === "encore.dev/pubsub" && target.name === "Attribute" && args.length === 1) {
      return this.fromNode(args[0], at);
    }
    if (target.module === "encore.dev/types" && target.name === "Decimal") return { kind: "decimal" };
    if (target.lib && target.name === "Date") return { kind: "date" };
    if (target.lib && (target.name === "Array" || target.name === "ReadonlyArray") && args.length === 1) {
      return { kind: "array", elem: this.fromNode(args[0], at) };
    }
    const decl = target.decl;
    if (ts.isTypeAliasDeclaration(decl) && decl.typeParameters === undefined && !this.aliasStack.has(decl)) {
      this.aliasStack.add(decl);
      try {
        return this.fromNode(decl.type, at);
      } finally {
        this.aliasStack.delete(decl);
      }
    }
    return null;
  }

  // ---- the checker's form -----------------------------------------------------------------

  private fromType(type: ts.Type, at: ts.Node): TypeSchema {
    const f = type.flags;
    if (f & ts.TypeFlags.Any || f & ts.TypeFlags.Unknown) return { kind: "any" };
    if (f & ts.TypeFlags.Boolean) return { kind: "boolean" };
    if (f & ts.TypeFlags.String || f & ts.TypeFlags.TemplateLiteral || f & ts.TypeFlags.StringMapping) return { kind: "string" };
    if (f & ts.TypeFlags.Number) return { kind: "number" };
    if (f & ts.TypeFlags.BigInt || f & ts.TypeFlags.BigIntLiteral) return { kind: "bigint" };
    if (f & ts.TypeFlags.Null) return { kind: "null" };
    if (f & ts.TypeFlags.StringLiteral) return { kind: "literal", value: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { kind: "literal", value: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral) return { kind: "literal", value: type === this.checker.getTrueType() };
    if (f & ts.TypeFlags.Union) {
      const members = (type as ts.UnionType).types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
      return unionOf(members.map((m) => this.fromType(m, at)));
    }
    if (f & ts.TypeFlags.Intersection) return this.intersectionType(type as ts.IntersectionType, at);
    if (f & ts.TypeFlags.Object) return this.objectType(type as ts.ObjectType, at);
    fail(at, `unsupported basic type in schema: ${this.checker.typeToString(type)}`);
  }

  /** An intersection the checker built: validation brands (by alias) on a base, or merged objects. */
  private intersectionType(type: ts.IntersectionType, at: ts.Node): TypeSchema {
    const rules: ValidationExpr[] = [];
    const rest: ts.Type[] = [];
    for (const t of type.types) {
      const alias = t.aliasSymbol;
      const decl = alias?.declarations?.[0];
      if (alias !== undefined && decl !== undefined && encoreModuleOf(decl) === "encore.dev/validate") {
        rules.push(this.ruleFromAlias(alias.name, t.aliasTypeArguments?.[0]));
      } else rest.push(t);
    }
    if (rules.length === 0) return this.objectType(type, at);
    const base = rest.length === 1 ? this.fromType(rest[0], at) : this.objectType(type, at);
    return { kind: "validated", base, expr: rules.reduce(andExpr) };
  }

  private ruleFromAlias(name: string, arg: ts.Type | undefined): ValidationExpr {
    const value = arg === undefined ? undefined : (arg as ts.LiteralType).value;
    const rule = {
      Min: "minValue",
      Max: "maxValue",
      MinLen: "minLen",
      MaxLen: "maxLen",
      StartsWith: "startsWith",
      EndsWith: "endsWith",
      MatchesRegexp: "matchesRegexp",
      IsEmail: "isEmail",
      IsURL: "isURL",
    }[name];
    return (value === undefined ? { rule } : { rule, value }) as ValidationExpr;
  }

  /** What an object type is to Encore: Date, Decimal, an array, a tuple, a class, or a plain object. */
  private objectKind(type: ts.Type): "date" | "decimal" | "array" | "tuple" | "class" | "function" | "plain" {
    if (this.checker.isArrayType(type)) return "array";
    if (this.checker.isTupleType(type)) return "tuple";
    const sym = type.getSymbol();
    const decl = sym?.declarations?.[0];
    if (sym !== undefined && decl !== undefined) {
      if (encoreModuleOf(decl) === "encore.dev/types" && sym.name === "Decimal") return "decimal";
      const lib = this.program.isSourceFileDefaultLibrary(decl.getSourceFile());
      if (lib && sym.name === "Date") return "date";
      if (sym.flags & ts.SymbolFlags.Class || (lib && CLASS_LIKE.has(sym.name))) return "class";
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return "function";
    return "plain";
  }

  private objectType(type: ts.Type, at: ts.Node): TypeSchema {
    switch (this.objectKind(type)) {
      case "date":
        return { kind: "date" };
      case "decimal":
        return { kind: "decimal" };
      case "array":
        return { kind: "array", elem: this.fromType(this.checker.getTypeArguments(type as ts.TypeReference)[0], at) };
      case "tuple":
        return fail(at, "tuple types are not yet supported in schemas");
      case "class":
        return fail(at, `class types are not yet supported in schemas (${type.getSymbol()?.name})`);
      case "function":
        return fail(at, "function types are not supported in schemas");
    }
    if (this.typeStack.has(type)) return { kind: "any" };
    this.typeStack.add(type);
    try {
      const index = this.checker.getIndexInfosOfType(type);
      if (index.length > 0) {
        if (this.checker.getPropertiesOfType(type).length > 0) fail(at, "index signature with additional fields is not supported");
        return { kind: "map", value: this.fromType(index[0].type, at) };
      }
      return { kind: "object", fields: this.fields(type, at, false) };
    } finally {
      this.typeStack.delete(type);
    }
  }
}

/**
 * Flattens and de-duplicates union members the way Encore's simplify_union does. A union of
 * validated members over one base (what the checker makes of `string & (IsEmail | IsURL)`)
 * becomes that base validated by the members' rules or-ed together, which means the same.
 */
function unionOf(members: TypeSchema[]): TypeSchema {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.types : [m]));
  if (flat.some((m) => m.kind === "any")) return { kind: "any" };
  const hasTrue = flat.some((m) => m.kind === "literal" && m.value === true);
  const hasFalse = flat.some((m) => m.kind === "literal" && m.value === false);
  const out: TypeSchema[] = [];
  for (const m of flat) {
    let t = m;
    if (hasTrue && hasFalse && t.kind === "literal" && typeof t.value === "boolean") t = { kind: "boolean" };
    if (t.kind === "literal" && flat.some((o) => o.kind === typeof (t as { value: unknown }).value)) continue;
    if (!out.some((o) => JSON.stringify(o) === JSON.stringify(t))) out.push(t);
  }
  if (out.length === 1) return out[0];
  const bases = new Set(out.map((t) => (t.kind === "validated" ? JSON.stringify(t.base) : null)));
  if (bases.size === 1 && !bases.has(null) && out[0].kind === "validated") {
    return { kind: "validated", base: out[0].base, expr: out.map((t) => (t as { expr: ValidationExpr }).expr).reduce(orExpr) };
  }
  return { kind: "union", types: out };
}

/** Simplifies validation expressions throughout, as Encore does when it emits the schema. */
function finalize(t: TypeSchema): TypeSchema {
  switch (t.kind) {
    case "validated":
      return { kind: "validated", base: finalize(t.base), expr: simplifyExpr(t.expr) };
    case "array":
      return { kind: "array", elem: finalize(t.elem) };
    case "map":
      return { kind: "map", value: finalize(t.value) };
    case "union":
      return { kind: "union", types: t.types.map(finalize) };
    case "object":
      return { kind: "object", fields: t.fields.map((f) => ({ ...f, type: finalize(f.type) })) };
    default:
      return t;
  }
}

/** Every validation in a schema whose rules do not fit their base type, as Encore's messages. */
export function validationErrors(t: TypeSchema): string[] {
  switch (t.kind) {
    case "validated": {
      const err = unsupportedValidation(t.expr, t.base);
      return err !== null ? [err] : validationErrors(t.base);
    }
    case "array":
      return validationErrors(t.elem);
    case "map":
      return validationErrors(t.value);
    case "union":
      return t.types.flatMap(validationErrors);
    case "object":
      return t.fields.flatMap((f) => validationErrors(f.type));
    default:
      return [];
  }
}
