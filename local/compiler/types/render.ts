// How Encore prints its types inside error messages: `{typ}` is type_string.rs's rendering,
// `{typ:?}`/`{typ:#?}` is Rust's derived Debug. Debug is printed on one line here, where Encore's
// `{:#?}` spreads it over several; the words are the same.
import type { ValidationExpr } from "../../model/app-model";
import type { Basic, EnumValue, Generic, Literal, Type, WireLocation } from "./typ";

/** Rust's `{}` of an f64: integers without a fraction, never an exponent. */
function rustFloat(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  const s = String(n);
  if (!s.includes("e")) return s;
  const [mant, exp] = s.split("e");
  const digits = mant.replace(".", "").replace("-", "");
  const pointAt =
    (mant.replace("-", "").indexOf(".") < 0 ? mant.replace("-", "").length : mant.replace("-", "").indexOf(".")) + Number(exp);
  const sign = n < 0 ? "-" : "";
  return pointAt <= 0 ? `${sign}0.${"0".repeat(-pointAt)}${digits}` : `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

/** Rust's `{:?}` of an f64: `55.0` for integers, an exponent past 1e16 or below 1e-5. */
function rustFloatDebug(n: number): string {
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-5)) return n.toExponential().replace("e+", "e");
  return Number.isInteger(n) ? `${rustFloat(n)}.0` : rustFloat(n);
}

/** Rust's `{:?}` of a string (close enough: JSON's escapes). */
const quote = (s: string): string => JSON.stringify(s);

/** validation.rs Display. EndsWith and MatchesRegexp lack the closing `>` there too. */
export function ruleText(e: ValidationExpr): string {
  if ("and" in e) return `(${e.and.map(ruleText).join(" & ")})`;
  if ("or" in e) return `(${e.or.map(ruleText).join(" | ")})`;
  switch (e.rule) {
    case "minLen":
      return `MinLen<${e.value}>`;
    case "maxLen":
      return `MaxLen<${e.value}>`;
    case "minValue":
      return `Min<${rustFloat(e.value)}>`;
    case "maxValue":
      return `Max<${rustFloat(e.value)}>`;
    case "startsWith":
      return `StartsWith<${quote(e.value)}>`;
    case "endsWith":
      return `EndsWith<${quote(e.value)}`;
    case "matchesRegexp":
      return `MatchesRegexp<${quote(e.value)}`;
    case "isEmail":
      return "IsEmail";
    case "isURL":
      return "IsURL";
  }
}

function literalText(l: Literal): string {
  if (l.kind === "string") return quote(l.value);
  if (l.kind === "number") return rustFloat(l.value);
  return String(l.value);
}

const WIRE_NAMES: Record<WireLocation, string> = {
  query: "Query",
  header: "Header",
  "pubsub-attr": "Attribute",
  cookie: "Cookie",
  httpstatus: "HttpStatus",
};

/** type_string.rs: `{typ}`. */
export function typeText(t: Type): string {
  switch (t.t) {
    case "basic":
      return t.basic;
    case "array":
      return `Array<${typeText(t.elem)}>`;
    case "interface":
      return `interface { ${t.fields.map((f) => `${f.name}${f.optional ? "?" : ""}: ${typeText(f.typ)}`).join("; ")} }`;
    case "union":
      return t.types.map(typeText).join(" | ");
    case "tuple":
      return `[${t.types.map(typeText).join(", ")}]`;
    case "literal":
      return literalText(t.lit);
    case "class":
      return "class {}";
    case "enum":
      return `enum { ${t.members.map((m) => m.name).join(", ")} }`;
    case "named":
      return `${t.obj.name ?? "UnknownObject"}${t.args.length > 0 ? `<${t.args.map(typeText).join(", ")}>` : ""}`;
    case "optional":
      return `${typeText(t.inner)}?`;
    case "this":
      return "this";
    case "generic":
      return genericText(t.generic);
    case "validation":
      return ruleText(t.expr);
    case "validated":
      return `${typeText(t.typ)} & ${ruleText(t.expr)}`;
    case "wirespec":
      if (t.location === "httpstatus") return "HttpStatus";
      return `${WIRE_NAMES[t.location]}<${typeText(t.underlying)}${t.name !== null ? `, ${quote(t.name)}` : ""}>`;
    case "decimal":
      return "Decimal";
    case "function":
      return `(${t.params
        .map((p) => `${p.name !== null ? `${p.name}${p.optional ? "?" : ""}: ` : ""}${p.rest ? "..." : ""}${typeText(p.typ)}`)
        .join(", ")}) => ${typeText(t.ret)}`;
  }
}

function genericText(g: Generic): string {
  switch (g.g) {
    case "type-param":
      return `TypeParam#${g.idx}`;
    case "index":
      return `${typeText(g.source)}[${typeText(g.index)}]`;
    case "mapped":
      return `{ [P in ${typeText(g.inType)}]: ${typeText(g.valueType)} }`;
    case "mapped-key":
      return "P";
    case "keyof":
      return `keyof ${typeText(g.source)}`;
    case "conditional":
      return `${typeText(g.check)} extends ${typeText(g.extends)} ? ${typeText(g.whenTrue)} : ${typeText(g.whenFalse)}`;
    case "inferred":
      return `Inferred#${g.idx}`;
    case "intersection":
      return `${typeText(g.x)} & ${typeText(g.y)}`;
  }
}

const BASIC_DEBUG: Record<Basic, string> = {
  any: "Any",
  string: "String",
  boolean: "Boolean",
  number: "Number",
  object: "Object",
  bigint: "BigInt",
  Date: "Date",
  symbol: "Symbol",
  undefined: "Undefined",
  null: "Null",
  void: "Void",
  unknown: "Unknown",
  never: "Never",
};

/** Rust's `{:?}` of a Basic ("Never"). */
export const basicDebug = (b: Basic): string => BASIC_DEBUG[b];

const opt = (s: string | null): string => (s === null ? "None" : `Some(${s})`);
const list = (items: string[]): string => `[${items.join(", ")}]`;

function literalDebug(l: Literal): string {
  switch (l.kind) {
    case "string":
      return `String(${quote(l.value)})`;
    case "boolean":
      return `Boolean(${l.value})`;
    case "number":
      return `Number(${rustFloatDebug(l.value)})`;
    case "bigint":
      return `BigInt(${quote(l.value)})`;
  }
}

export function exprDebug(e: ValidationExpr): string {
  if ("and" in e) return `And(${list(e.and.map(exprDebug))})`;
  if ("or" in e) return `Or(${list(e.or.map(exprDebug))})`;
  const rule = ((): string => {
    switch (e.rule) {
      case "minLen":
        return `MinLen(${e.value})`;
      case "maxLen":
        return `MaxLen(${e.value})`;
      case "minValue":
        return `MinVal(N(${rustFloatDebug(e.value)}))`;
      case "maxValue":
        return `MaxVal(N(${rustFloatDebug(e.value)}))`;
      case "startsWith":
        return `StartsWith(${quote(e.value)})`;
      case "endsWith":
        return `EndsWith(${quote(e.value)})`;
      case "matchesRegexp":
        return `MatchesRegexp(${quote(e.value)})`;
      case "isEmail":
        return "Is(Email)";
      case "isURL":
        return "Is(Url)";
    }
  })();
  return `Rule(${rule})`;
}

const enumValueDebug = (v: EnumValue): string => (v.kind === "string" ? `String(${quote(v.value)})` : `Number(${v.value})`);

const WIRE_DEBUG: Record<WireLocation, string> = {
  query: "Query",
  header: "Header",
  "pubsub-attr": "PubSubAttr",
  cookie: "Cookie",
  httpstatus: "HttpStatus",
};

/** Rust's derived `{:?}` of a Type. */
export function typeDebug(t: Type): string {
  switch (t.t) {
    case "basic":
      return `Basic(${BASIC_DEBUG[t.basic]})`;
    case "array":
      return `Array(Array(${typeDebug(t.elem)}))`;
    case "interface": {
      const fields = t.fields.map(
        (f) => `InterfaceField { name: String(${quote(f.name)}), optional: ${f.optional}, typ: ${typeDebug(f.typ)} }`,
      );
      const index = t.index === null ? "None" : `Some((${typeDebug(t.index[0])}, ${typeDebug(t.index[1])}))`;
      const call = t.call === null ? "None" : `Some(${list(t.call.map((c) => `(${list(c.params.map(typeDebug))}, ${typeDebug(c.ret)})`))})`;
      return `Interface(Interface { fields: ${list(fields)}, index: ${index}, call: ${call} })`;
    }
    case "union":
      return `Union(Union { types: ${list(t.types.map(typeDebug))} })`;
    case "tuple":
      return `Tuple(Tuple { types: ${list(t.types.map(typeDebug))} })`;
    case "literal":
      return `Literal(${literalDebug(t.lit)})`;
    case "class":
      return `Class(ClassType { methods: ${list(t.methods.map(quote))} })`;
    case "enum":
      return `Enum(EnumType { members: ${list(t.members.map((m) => `EnumMember { name: ${quote(m.name)}, value: ${enumValueDebug(m.value)} }`))} })`;
    case "named":
      return `Named(Named { obj: Object { name: ${opt(t.obj.name === null ? null : quote(t.obj.name))} }, type_arguments: ${list(t.args.map(typeDebug))} })`;
    case "optional":
      return `Optional(Optional(${typeDebug(t.inner)}))`;
    case "this":
      return "This(This)";
    case "generic":
      return `Generic(${genericDebug(t.generic)})`;
    case "validation":
      return `Validation(${exprDebug(t.expr)})`;
    case "validated":
      return `Validated(Validated { typ: ${typeDebug(t.typ)}, expr: ${exprDebug(t.expr)} })`;
    case "wirespec":
      return `Custom(WireSpec(WireSpec { location: ${WIRE_DEBUG[t.location]}, underlying: ${typeDebug(t.underlying)}, name_override: ${opt(t.name === null ? null : quote(t.name))} }))`;
    case "decimal":
      return "Custom(Decimal)";
    case "function": {
      const params = t.params.map(
        (p) =>
          `FunctionParam { name: ${opt(p.name === null ? null : quote(p.name))}, typ: ${typeDebug(p.typ)}, optional: ${p.optional}, rest: ${p.rest} }`,
      );
      return `Function(FunctionType { params: ${list(params)}, return_type: ${typeDebug(t.ret)}, type_params: None })`;
    }
  }
}

/** Rust's derived `{:?}` of a Generic. */
export function genericDebug(g: Generic): string {
  switch (g.g) {
    case "type-param":
      return `TypeParam(TypeParam { idx: ${g.idx}, constraint: ${opt(g.constraint === null ? null : typeDebug(g.constraint))} })`;
    case "index":
      return `Index(Index { source: ${typeDebug(g.source)}, index: ${typeDebug(g.index)} })`;
    case "mapped":
      return `Mapped(Mapped { in_type: ${typeDebug(g.inType)}, value_type: ${typeDebug(g.valueType)}, optional: ${opt(g.optional === null ? null : String(g.optional))}, as_type: ${opt(g.asType === null ? null : typeDebug(g.asType))} })`;
    case "mapped-key":
      return "MappedKeyType(MappedKeyType)";
    case "keyof":
      return `Keyof(Keyof(${typeDebug(g.source)}))`;
    case "conditional":
      return `Conditional(Conditional { check_type: ${typeDebug(g.check)}, extends_type: ${typeDebug(g.extends)}, true_type: ${typeDebug(g.whenTrue)}, false_type: ${typeDebug(g.whenFalse)} })`;
    case "intersection":
      return `Intersection(Intersection { x: ${typeDebug(g.x)}, y: ${typeDebug(g.y)} })`;
    case "inferred":
      return `Inferred(Inferred(${g.idx}))`;
  }
}
