// The types of Encore's resolver (tsparser/src/parser/types/typ.rs): what a TypeScript type is to
// Encore, which is not always what it is to TypeScript. Also the structural operations typ.rs
// defines on them: identity, union merging, assignability, `extends` with `infer`, intersection.
import type ts from "typescript";
import type { ValidationExpr } from "../../model/app-model";
import { andExpr, orExpr } from "../base/validation";
import type { Obj } from "./objects";

export type Basic =
  "any" | "string" | "boolean" | "number" | "object" | "bigint" | "Date" | "symbol" | "undefined" | "null" | "void" | "unknown" | "never";

export type Literal =
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "number"; value: number }
  | { kind: "bigint"; value: string };

export interface Field {
  name: string;
  optional: boolean;
  typ: Type;
  /** Where the field was written, when it was (Encore's InterfaceField.range). */
  node: ts.Node | null;
}

interface CallSignature {
  params: Type[];
  ret: Type;
}

export interface FnParam {
  name: string | null;
  typ: Type;
  optional: boolean;
  rest: boolean;
}

export type WireLocation = "query" | "header" | "pubsub-attr" | "cookie" | "httpstatus";

export type EnumValue = { kind: "string"; value: string } | { kind: "number"; value: number };

export type Generic =
  | { g: "type-param"; idx: number; constraint: Type | null }
  | { g: "index"; source: Type; index: Type }
  | { g: "mapped"; inType: Type; valueType: Type; optional: boolean | null; asType: Type | null }
  | { g: "mapped-key" }
  | { g: "keyof"; source: Type }
  | { g: "conditional"; check: Type; extends: Type; whenTrue: Type; whenFalse: Type }
  | { g: "intersection"; x: Type; y: Type }
  | { g: "inferred"; idx: number };

export type Type =
  | { t: "basic"; basic: Basic }
  | { t: "array"; elem: Type }
  | { t: "interface"; fields: Field[]; index: [Type, Type] | null; call: CallSignature[] | null }
  | { t: "union"; types: Type[] }
  | { t: "tuple"; types: Type[] }
  | { t: "literal"; lit: Literal }
  | { t: "class"; methods: string[] }
  | { t: "enum"; members: { name: string; value: EnumValue }[] }
  | { t: "named"; obj: Obj; args: Type[] }
  | { t: "optional"; inner: Type }
  | { t: "this" }
  | { t: "generic"; generic: Generic }
  /** A standalone encore.dev/validate expression. */
  | { t: "validation"; expr: ValidationExpr }
  /** A type with validation applied to it. */
  | { t: "validated"; typ: Type; expr: ValidationExpr }
  | { t: "wirespec"; location: WireLocation; underlying: Type; name: string | null }
  | { t: "decimal" }
  | { t: "function"; params: FnParam[]; ret: Type };

export const basic = (b: Basic): Type => ({ t: "basic", basic: b });
export const NEVER = basic("never");
export const union = (types: Type[]): Type => ({ t: "union", types });
export const literal = (lit: Literal): Type => ({ t: "literal", lit });
export const strLit = (value: string): Type => literal({ kind: "string", value });
export const generic = (g: Generic): Type => ({ t: "generic", generic: g });

export const isBasic = (t: Type, b: Basic): boolean => t.t === "basic" && t.basic === b;

/** What the structural operations need from the resolver: a named type's underlying type. */
export interface NamedEnv {
  underlyingNamed(named: Extract<Type, { t: "named" }>): Type;
}

/** Thrown where Encore's own code panics (typ.rs `todo!()`): the build would crash, so it fails. */
export class EncorePanic extends Error {}

function literalEq(a: Literal, b: Literal): boolean {
  return a.kind === b.kind && a.value === b.value;
}

function enumValueEq(a: EnumValue, b: EnumValue): boolean {
  return a.kind === b.kind && a.value === b.value;
}

function literalBasic(l: Literal): Basic {
  return l.kind;
}

/** typ.rs Type::identical. Unions and tuples compare pairwise up to the shorter list, as `zip` does. */
export function identical(a: Type, b: Type): boolean {
  const zipAll = (x: Type[], y: Type[]): boolean => x.slice(0, Math.min(x.length, y.length)).every((t, i) => identical(t, y[i]));
  switch (a.t) {
    case "basic":
      return b.t === "basic" && a.basic === b.basic;
    case "array":
      return b.t === "array" && identical(a.elem, b.elem);
    case "interface":
      return b.t === "interface" && interfaceIdentical(a, b);
    case "union":
    case "tuple":
      return b.t === a.t && zipAll(a.types, b.types);
    case "literal":
      return b.t === "literal" && literalEq(a.lit, b.lit);
    case "class":
      if (b.t === "class")
        throw new EncorePanic("Encore's parser panics comparing two class types (typ.rs ClassType::identical is todo!())");
      return false;
    case "named":
      return b.t === "named" && a.obj.id === b.obj.id && a.args.length === b.args.length && a.args.every((x, i) => identical(x, b.args[i]));
    case "optional":
      return b.t === "optional" && identical(a.inner, b.inner);
    case "this":
      return b.t === "this";
    case "generic":
      return b.t === "generic" && genericIdentical(a.generic, b.generic);
    case "enum":
      return (
        b.t === "enum" &&
        a.members.length === b.members.length &&
        a.members.every((m, i) => m.name === b.members[i].name && enumValueEq(m.value, b.members[i].value))
      );
    case "wirespec":
      return b.t === "wirespec" && a.location === b.location && a.name === b.name && identical(a.underlying, b.underlying);
    case "decimal":
      return b.t === "decimal";
    case "function":
      return (
        b.t === "function" &&
        a.params.length === b.params.length &&
        a.params.every((p, i) => identical(p.typ, b.params[i].typ) && p.optional === b.params[i].optional && p.rest === b.params[i].rest) &&
        identical(a.ret, b.ret)
      );
    default:
      // Validation and Validated are never identical to anything (typ.rs has no arm for them).
      return false;
  }
}

function interfaceIdentical(a: Extract<Type, { t: "interface" }>, b: Extract<Type, { t: "interface" }>): boolean {
  if (a.fields.length !== b.fields.length || (a.index === null) !== (b.index === null)) return false;
  const byName = new Map(a.fields.map((f) => [f.name, f]));
  for (const f of b.fields) {
    const mine = byName.get(f.name);
    if (mine === undefined || !identical(mine.typ, f.typ) || mine.optional !== f.optional) return false;
  }
  if (a.index !== null && b.index !== null && (!identical(a.index[0], b.index[0]) || !identical(a.index[1], b.index[1]))) return false;
  if ((a.call === null) !== (b.call === null)) return false;
  if (a.call !== null && b.call !== null) {
    if (a.call.length !== b.call.length) return false;
    for (const [i, sig] of a.call.entries()) {
      const other = b.call[i];
      if (sig.params.length !== other.params.length || !sig.params.every((p, j) => identical(p, other.params[j]))) return false;
      if (!identical(sig.ret, other.ret)) return false;
    }
  }
  return true;
}

function genericIdentical(a: Generic, b: Generic): boolean {
  if (a.g === "type-param" && b.g === "type-param") {
    if (a.idx !== b.idx) return false;
    if (a.constraint === null || b.constraint === null) return a.constraint === b.constraint;
    return identical(a.constraint, b.constraint);
  }
  if (a.g === "mapped" && b.g === "mapped") {
    if (!identical(a.inType, b.inType) || !identical(a.valueType, b.valueType)) return false;
    if (a.asType === null || b.asType === null) return a.asType === b.asType;
    return identical(a.asType, b.asType);
  }
  return false;
}

/** typ.rs Type::union_merge: the one type `a | b` collapses to, or null when it stays a union. */
export function unionMerge(a: Type, b: Type): Type | null {
  if (isBasic(a, "any") || isBasic(b, "any")) return basic("any");
  if (a.t === "basic" && b.t === "literal" && a.basic === literalBasic(b.lit)) return a;
  if (a.t === "literal" && b.t === "basic" && b.basic === literalBasic(a.lit)) return b;
  if (a.t === "validation" && b.t === "validation") return { t: "validation", expr: orExpr(a.expr, b.expr) };
  if (a.t === "validated" && b.t === "validation") return { t: "validated", typ: a.typ, expr: orExpr(a.expr, b.expr) };
  if (a.t === "validation" && b.t === "validated") return { t: "validated", typ: b.typ, expr: orExpr(b.expr, a.expr) };
  if (a.t === "function" && b.t === "function") return null;
  return identical(a, b) ? a : null;
}

/** typ.rs simplify_or_union. */
export function simplifyOrUnion(a: Type, b: Type): Type {
  return unionMerge(a, b) ?? union([a, b]);
}

/** typ.rs simplify_union: drops `never`, merges what merges, unwraps a single member. */
export function simplifyUnion(types: Type[]): Type {
  const results: Type[] = [];
  for (const t of types) {
    if (isBasic(t, "never")) continue;
    let found = false;
    for (const [i, u] of results.entries()) {
      const merged = unionMerge(u, t);
      if (merged !== null) {
        results[i] = merged;
        found = true;
        break;
      }
    }
    if (!found) results.push(t);
  }
  if (results.length === 0) return NEVER;
  return results.length === 1 ? results[0] : union(results);
}

/** typ.rs iter_unions: a union's members, flattened; Optional adds `undefined`; Validated is transparent. */
export function iterUnions(t: Type): Type[] {
  switch (t.t) {
    case "union":
      return t.types.flatMap(iterUnions);
    case "optional":
      return [...iterUnions(t.inner), basic("undefined")];
    case "validated":
      return iterUnions(t.typ);
    default:
      return [t];
  }
}

/**
 * typ.rs answers `x assignable to (T & Rule)` by asking whether T is assignable to `T & Rule`
 * itself, which recurses until the stack overflows: Encore's build crashes there.
 */
function validatedTargetPanic(): EncorePanic {
  return new EncorePanic("Encore's parser recurses without end checking assignability to a validated type (typ.rs assignable/extends)");
}

const literalFits = (l: Literal, b: Basic): boolean => b === "any" || literalBasic(l) === b;

/** typ.rs Type::assignable: true, false, or null when a generic leaves it undecided. */
export function assignable(env: NamedEnv, a: Type, b: Type): boolean | null {
  if (isBasic(b, "any")) return true;
  if (isBasic(b, "never")) return false;
  if (a.t === "generic" || b.t === "generic") return null;
  if (a.t === "named") return assignable(env, env.underlyingNamed(a), b);
  if (b.t === "named") return assignable(env, a, env.underlyingNamed(b));
  if (a.t === "basic" && b.t === "basic") return a.basic === b.basic;
  if (a.t === "literal" && b.t === "basic") return literalFits(a.lit, b.basic);
  if (a.t === "validated") return assignable(env, a.typ, b);
  if (b.t === "validated") throw validatedTargetPanic();
  if (b.t === "optional") return isBasic(a, "undefined") ? true : assignable(env, a, b.inner);
  if (a.t === "tuple") {
    if (b.t === "tuple") {
      if (a.types.length !== b.types.length) return false;
      let undecided = false;
      for (const [i, x] of a.types.entries()) {
        const r = assignable(env, x, b.types[i]);
        if (r === false) return false;
        if (r === null) undecided = true;
      }
      return undecided ? null : true;
    }
    if (b.t === "array") {
      for (const x of a.types) {
        const r = assignable(env, x, b.elem);
        if (r !== true) return r;
      }
      return true;
    }
    return false;
  }
  if (a.t === "enum") return enumAssignable(env, a, b);
  if (a.t === "interface") {
    if (b.t !== "interface") return false;
    const mine = new Map(a.fields.map((f) => [f.name, f]));
    let undecided = false;
    for (const f of b.fields) {
      const m = mine.get(f.name);
      if (m === undefined) return false;
      const r = assignable(env, m.typ, f.typ);
      if (r === false) return false;
      if (r === null) undecided = true;
    }
    return undecided ? null : true;
  }
  if (b.t === "union") {
    for (const x of iterUnions(a)) {
      let undecided = false;
      let matched = false;
      for (const o of b.types) {
        const r = assignable(env, x, o);
        if (r === true) {
          matched = true;
          break;
        }
        if (r === null) undecided = true;
      }
      if (!matched) return undecided ? null : false;
    }
    return true;
  }
  return identical(a, b);
}

function enumAssignable(env: NamedEnv, a: Extract<Type, { t: "enum" }>, b: Type): boolean | null {
  const mine = new Map(a.members.map((m) => [m.name, m.value]));
  if (b.t === "enum") return b.members.every((m) => mine.has(m.name) && enumValueEq(mine.get(m.name) as EnumValue, m.value));
  if (b.t !== "interface") return false;
  let undecided = false;
  for (const f of b.fields) {
    const v = mine.get(f.name);
    if (v === undefined) continue;
    const r = assignable(env, literal(v), f.typ);
    if (r === false) return false;
    if (r === null) undecided = true;
  }
  return undecided ? null : true;
}

/** The result of `A extends B`, with what each `infer` position captured. */
type Extends = { yes: [number, Type][] } | "no" | "unknown";

const yesOrNo = (v: boolean): Extends => (v ? { yes: [] } : "no");

/** typ.rs Type::extends. */
export function extendsType(env: NamedEnv, a: Type, b: Type): Extends {
  if (b.t === "generic" && b.generic.g === "inferred") return { yes: [[b.generic.idx, a]] };
  if (isBasic(b, "any")) return { yes: [] };
  if (isBasic(b, "never")) return "no";
  if (a.t === "generic" || b.t === "generic") return "unknown";
  if (a.t === "named") return extendsType(env, env.underlyingNamed(a), b);
  if (b.t === "named") return extendsType(env, a, env.underlyingNamed(b));
  if (a.t === "basic" && b.t === "basic") return yesOrNo(a.basic === b.basic);
  if (a.t === "literal" && b.t === "basic") return yesOrNo(literalFits(a.lit, b.basic));
  if (a.t === "validated") return extendsType(env, a.typ, b);
  if (b.t === "validated") throw validatedTargetPanic();
  if (b.t === "optional") return isBasic(a, "undefined") ? { yes: [] } : extendsType(env, a, b.inner);
  if (a.t === "tuple") {
    if (b.t === "tuple") {
      if (a.types.length !== b.types.length) return "no";
      let unknown = false;
      const inferred: [number, Type][] = [];
      for (const [i, x] of a.types.entries()) {
        const r = extendsType(env, x, b.types[i]);
        if (r === "no") return "no";
        if (r === "unknown") unknown = true;
        else inferred.push(...r.yes);
      }
      return unknown ? "unknown" : { yes: inferred };
    }
    if (b.t === "array") {
      const inferred: [number, Type][] = [];
      for (const x of a.types) {
        const r = extendsType(env, x, b.elem);
        if (r === "no" || r === "unknown") return r;
        inferred.push(...r.yes);
      }
      // Several captures of one `infer` position become their union.
      const byIdx = new Map<number, Type[]>();
      for (const [i, t] of [...inferred].sort((x, y) => x[0] - y[0])) byIdx.set(i, [...(byIdx.get(i) ?? []), t]);
      return { yes: [...byIdx].map(([i, ts]) => [i, simplifyUnion(ts)]) };
    }
    return "no";
  }
  if (a.t === "enum") {
    const r = enumAssignable(env, a, b);
    return r === null ? "unknown" : yesOrNo(r);
  }
  if (a.t === "interface") {
    if (b.t !== "interface") return "no";
    const mine = new Map(a.fields.map((f) => [f.name, f]));
    let unknown = false;
    const inferred: [number, Type][] = [];
    for (const f of b.fields) {
      const m = mine.get(f.name);
      if (m === undefined) return "no";
      const r = extendsType(env, m.typ, f.typ);
      if (r === "no") return "no";
      if (r === "unknown") unknown = true;
      else inferred.push(...r.yes);
    }
    return unknown ? "unknown" : { yes: inferred };
  }
  if (b.t === "union") {
    let yes = false;
    let unknown = false;
    const inferred: [number, Type][] = [];
    for (const x of iterUnions(a)) {
      for (const o of b.types) {
        const r = extendsType(env, x, o);
        if (r === "unknown") unknown = true;
        else if (r !== "no") {
          yes = true;
          inferred.push(...r.yes);
        }
      }
    }
    return yes ? { yes: inferred } : unknown ? "unknown" : "no";
  }
  return yesOrNo(identical(a, b));
}

/** What intersecting two types reports: Encore's HANDLER errors without a span. */
export interface IntersectEnv extends NamedEnv {
  reportUnplaced(message: string): void;
}

const literalInBasic = (l: Literal, b: Basic): boolean => literalBasic(l) === b || b === "any" || b === "unknown";

/** typ.rs intersect: the type of `a & b`. */
export function intersect(env: IntersectEnv, a: Type, b: Type): Type {
  const unionWith = (u: Type, other: Type): Type =>
    simplifyUnion(
      iterUnions(u).flatMap((m) => {
        const r = intersect(env, m, other);
        return isBasic(r, "never") ? [] : [r];
      }),
    );
  if (isBasic(a, "unknown")) return b;
  if (isBasic(b, "unknown")) return a;
  if (isBasic(a, "any") || isBasic(b, "any")) return basic("any");
  if (isBasic(a, "never") || isBasic(b, "never")) return NEVER;
  if (a.t === "basic" && b.t === "basic") return a.basic === b.basic ? a : NEVER;
  if (a.t === "union" && b.t === "union") {
    const types: Type[] = [];
    for (const x of a.types) {
      for (const y of b.types) {
        const r = intersect(env, x, y);
        if (!isBasic(r, "never")) types.push(r);
      }
    }
    return simplifyUnion(types);
  }
  if (a.t === "union") return unionWith(a, b);
  if (b.t === "union") return unionWith(b, a);
  if (a.t === "literal" && b.t === "literal" && literalEq(a.lit, b.lit)) return a;
  if (a.t === "literal" && b.t === "basic") return literalInBasic(a.lit, b.basic) ? a : NEVER;
  if (a.t === "basic" && b.t === "literal") return literalInBasic(b.lit, a.basic) ? b : NEVER;
  if (a.t === "array" && b.t === "array") return { t: "array", elem: intersect(env, a.elem, b.elem) };
  if ((a.t === "array" && b.t === "tuple") || (a.t === "tuple" && b.t === "array")) {
    const [arr, tup] = a.t === "array" ? [a, b as Extract<Type, { t: "tuple" }>] : [b as Extract<Type, { t: "array" }>, a];
    // Only the tuple's first element is considered, as in Encore ("close enough for now").
    return { t: "array", elem: tup.types.length === 0 ? NEVER : intersect(env, arr.elem, tup.types[0]) };
  }
  if (a.t === "tuple" && b.t === "tuple") {
    const n = Math.min(a.types.length, b.types.length);
    return { t: "tuple", types: a.types.slice(0, n).map((x, i) => intersect(env, x, b.types[i])) };
  }
  if (a.t === "optional" && b.t === "optional") return { t: "optional", inner: intersect(env, a.inner, b.inner) };
  if (a.t === "optional") return unionWith(a.inner, b);
  if (b.t === "optional") return unionWith(b.inner, a);
  if (a.t === "this" && b.t === "this") return a;
  if (a.t === "validated" && b.t === "validation") return { t: "validated", typ: a.typ, expr: andExpr(a.expr, b.expr) };
  if (a.t === "validation" && b.t === "validated") return { t: "validated", typ: b.typ, expr: andExpr(a.expr, b.expr) };
  if (a.t === "validation" && b.t === "validation") return { t: "validation", expr: andExpr(a.expr, b.expr) };
  if (b.t === "validation") return { t: "validated", typ: a, expr: b.expr };
  if (a.t === "validation") return { t: "validated", typ: b, expr: a.expr };
  if (a.t === "generic" || b.t === "generic" || (a.t === "class" && b.t === "class")) {
    return generic({ g: "intersection", x: a, y: b });
  }
  if (a.t === "named") return intersect(env, env.underlyingNamed(a), b);
  if (b.t === "named") return intersect(env, a, env.underlyingNamed(b));
  if (a.t === "interface" && b.t === "interface") return intersectInterfaces(env, a, b);
  if (a.t === "interface" || b.t === "interface") return generic({ g: "intersection", x: a, y: b });
  return NEVER;
}

/** Fields add up; a name on both sides gets the intersection of its types and is optional only if both are. */
function intersectInterfaces(env: IntersectEnv, x: Extract<Type, { t: "interface" }>, y: Extract<Type, { t: "interface" }>): Type {
  const pending = new Map<string, Field | null>(y.fields.map((f) => [f.name, f]));
  const fields: Field[] = [];
  for (const f of x.fields) {
    const other = pending.get(f.name);
    if (other) {
      pending.set(f.name, null);
      fields.push({ ...f, typ: intersect(env, f.typ, other.typ), optional: f.optional && other.optional });
    } else fields.push(f);
  }
  for (const other of pending.values()) if (other) fields.push(other);
  let index: [Type, Type] | null = null;
  // Without fields the index signature is dropped (typ.rs intersect; its comment says the opposite).
  if (fields.length > 0) {
    if (x.index !== null && y.index !== null) index = [intersect(env, x.index[0], y.index[0]), intersect(env, x.index[1], y.index[1])];
    else index = x.index ?? y.index;
  }
  if (x.call !== null || y.call !== null) env.reportUnplaced("intersection of call signature types not yet supported");
  return { t: "interface", fields, index, call: null };
}
