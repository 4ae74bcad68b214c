// Encore's type resolver (tsparser/src/parser/types/type_resolve.rs), function by function, over
// TypeScript's syntax tree: written types become Encore's Type by Encore's rules, not by
// TypeScript's checker. Where Encore gives another type than TypeScript, this gives Encore's:
// an array literal is an empty union (array_lit never fills its element list), `keyof` of a
// string, number, array or tuple is an empty union, `typeof` of an object literal keeps its literal
// property types, indexed access works only in the forms type_index handles. Errors carry
// Encore's wording; type_resolve.rs is named as the source unless said otherwise.
import ts from "typescript";
import type { ValidationExpr } from "../../model/app-model";
import { typeDebug, typeText } from "./render";
import { type Obj, typeParamsOf } from "./objects";
import type { ResolveState } from "./state";
import {
  type Basic,
  type Field,
  type FnParam,
  type IntersectEnv,
  NEVER,
  type NamedEnv,
  type Type,
  type WireLocation,
  basic,
  extendsType,
  generic,
  intersect,
  isBasic,
  iterUnions,
  literal,
  simplifyOrUnion,
  simplifyUnion,
  strLit,
  union,
  unionMerge,
  assignable,
} from "./typ";

type Named = Extract<Type, { t: "named" }>;

/** swc's name for a type syntax Encore does not support ("unsupported: {typ:#?}"; the node's fields are left out here). */
function swcTypeName(node: ts.TypeNode): string {
  if (ts.isFunctionTypeNode(node)) return "TsFnOrConstructorType(TsFnType(..))";
  if (ts.isConstructorTypeNode(node)) return "TsFnOrConstructorType(TsConstructorType(..))";
  if (ts.isRestTypeNode(node)) return "TsRestType(..)";
  if (ts.isTypePredicateNode(node)) return "TsTypePredicate(..)";
  if (ts.isImportTypeNode(node)) return "TsImportType(..)";
  return `${ts.SyntaxKind[node.kind]}(..)`;
}

const KEYWORDS: Partial<Record<ts.SyntaxKind, Basic>> = {
  [ts.SyntaxKind.AnyKeyword]: "any",
  [ts.SyntaxKind.UnknownKeyword]: "unknown",
  [ts.SyntaxKind.NumberKeyword]: "number",
  [ts.SyntaxKind.ObjectKeyword]: "object",
  [ts.SyntaxKind.BooleanKeyword]: "boolean",
  [ts.SyntaxKind.BigIntKeyword]: "bigint",
  [ts.SyntaxKind.StringKeyword]: "string",
  [ts.SyntaxKind.SymbolKeyword]: "symbol",
  [ts.SyntaxKind.VoidKeyword]: "void",
  [ts.SyntaxKind.UndefinedKeyword]: "undefined",
  [ts.SyntaxKind.NeverKeyword]: "never",
};

/** parse_validation's rules and the literal each takes (an unsigned integer for the lengths). */
const VALIDATION_RULES: Record<string, { rule: string; arg: "number" | "unsigned" | "string" | null }> = {
  Min: { rule: "minValue", arg: "number" },
  Max: { rule: "maxValue", arg: "number" },
  MinLen: { rule: "minLen", arg: "unsigned" },
  MaxLen: { rule: "maxLen", arg: "unsigned" },
  StartsWith: { rule: "startsWith", arg: "string" },
  EndsWith: { rule: "endsWith", arg: "string" },
  MatchesRegexp: { rule: "matchesRegexp", arg: "string" },
  IsEmail: { rule: "isEmail", arg: null },
  IsURL: { rule: "isURL", arg: null },
};

const WIRE_SPECS: Record<string, WireLocation> = { Header: "header", Query: "query", Cookie: "cookie", HttpStatus: "httpstatus" };

/** The name a property is written with, when it is an identifier or a string literal. */
function plainName(name: ts.PropertyName): string | null {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
}

/** `x as const` (swc's TsConstAssertion). */
function isConstAssertion(e: ts.AsExpression | ts.TypeAssertion): boolean {
  return ts.isTypeReferenceNode(e.type) && ts.isIdentifier(e.type.typeName) && e.type.typeName.text === "const";
}

/** One resolution scope: the module, the type parameters and arguments in effect, a mapped key, `infer` names. */
export class Ctx {
  constructor(
    readonly state: ResolveState,
    readonly moduleId: number,
    private readonly typeParams: readonly ts.TypeParameterDeclaration[] = [],
    private readonly typeArgs: readonly Type[] = [],
    private readonly mappedKeyId: string | null = null,
    private readonly mappedKeyType: Type | null = null,
    private readonly inferParams: string[] | null = null,
    private readonly inferArgs: readonly Type[] = [],
  ) {}

  private with(o: {
    typeParams?: readonly ts.TypeParameterDeclaration[];
    typeArgs?: readonly Type[];
    mappedKeyId?: string | null;
    mappedKeyType?: Type | null;
    inferParams?: string[] | null;
    inferArgs?: readonly Type[];
  }): Ctx {
    return new Ctx(
      this.state,
      this.moduleId,
      o.typeParams ?? this.typeParams,
      o.typeArgs ?? this.typeArgs,
      o.mappedKeyId !== undefined ? o.mappedKeyId : this.mappedKeyId,
      o.mappedKeyType !== undefined ? o.mappedKeyType : this.mappedKeyType,
      o.inferParams !== undefined ? o.inferParams : this.inferParams,
      o.inferArgs ?? this.inferArgs,
    );
  }

  private err(node: ts.Node | null, message: string): Type {
    this.state.report(node, message);
    return NEVER;
  }

  // ---- written types (Ctx::typ) -----------------------------------------------------------

  typ(node: ts.TypeNode): Type {
    const kw = KEYWORDS[node.kind];
    if (kw !== undefined) return basic(kw);
    if (node.kind === ts.SyntaxKind.IntrinsicKeyword) return this.err(node, "unimplemented: TsIntrinsicKeyword");
    if (ts.isThisTypeNode(node)) return { t: "this" };
    if (ts.isArrayTypeNode(node)) return { t: "array", elem: this.typ(node.elementType) };
    if (ts.isTupleTypeNode(node)) {
      // Labelled elements are dropped (labels "don't actually impact type-checking", says tuple()).
      return { t: "tuple", types: node.elements.filter((e) => !ts.isNamedTupleMember(e)).map((e) => this.typ(e)) };
    }
    if (ts.isUnionTypeNode(node)) return simplifyUnion(node.types.map((t) => this.typ(t)));
    if (ts.isIntersectionTypeNode(node)) {
      let result = this.typ(node.types[0]);
      for (const t of node.types.slice(1)) result = intersect(this.intersectEnv(), result, this.typ(t));
      return result;
    }
    if (ts.isParenthesizedTypeNode(node)) return this.typ(node.type);
    if (ts.isTypeLiteralNode(node)) return this.typeLit(node.members);
    if (ts.isTypeReferenceNode(node)) return this.typeRef(node);
    if (ts.isOptionalTypeNode(node)) return { t: "optional", inner: this.typ(node.type) };
    if (ts.isTypeQueryNode(node)) return this.typeQuery(node);
    if (ts.isImportTypeNode(node) && node.isTypeOf) return this.err(node, "typeof with non-ident not yet supported");
    if (ts.isConditionalTypeNode(node)) return this.conditional(node);
    if (ts.isLiteralTypeNode(node)) return this.litType(node);
    if (ts.isTemplateLiteralTypeNode(node)) {
      this.err(node, "template literal expression not yet supported");
      return strLit("");
    }
    if (ts.isTypeOperatorNode(node)) {
      const inner = this.typ(node.type);
      return node.operator === ts.SyntaxKind.KeyOfKeyword ? this.keyof(inner) : inner;
    }
    if (ts.isMappedTypeNode(node)) return this.mapped(node);
    if (ts.isIndexedAccessTypeNode(node)) return this.typeIndex(node, this.typ(node.objectType), this.typ(node.indexType));
    if (ts.isInferTypeNode(node)) return this.infer(node);
    return this.err(node, `unsupported: ${swcTypeName(node)}`);
  }

  /** mapped: `{ [K in In as As]?: V }`. */
  private mapped(node: ts.MappedTypeNode): Type {
    if (node.type === undefined) return this.err(node, "missing value type annotation");
    const constraint = node.typeParameter.constraint;
    if (constraint === undefined) return this.err(node, "missing 'in' type annotation");
    const inType = this.typ(constraint);
    const nested = this.with({ mappedKeyId: node.typeParameter.name.text });
    const valueType = nested.typ(node.type);
    const asType = node.nameType !== undefined ? nested.typ(node.nameType) : null;
    const q = node.questionToken;
    const optional = q === undefined ? null : q.kind !== ts.SyntaxKind.MinusToken;
    return generic({ g: "mapped", inType, valueType, optional, asType });
  }

  /** type_index: `Obj[Idx]` in the forms Encore supports; anything else is an error. */
  typeIndex(at: ts.Node | null, obj: Type, idx: Type): Type {
    if (obj.t === "generic" || idx.t === "generic") return generic({ g: "index", source: obj, index: idx });
    if (obj.t === "named") return this.typeIndex(at, underlyingOf(this.state, obj), idx);
    if (idx.t === "named") return this.typeIndex(at, obj, underlyingOf(this.state, idx));
    if (obj.t === "interface") {
      if (idx.t === "literal" && idx.lit.kind === "string") {
        const value = idx.lit.value;
        const f = obj.fields.find((x) => x.name === value);
        if (f === undefined) return NEVER;
        return f.optional ? { t: "optional", inner: f.typ } : f.typ;
      }
      if (isBasic(idx, "string") || isBasic(idx, "number")) return obj.index !== null ? obj.index[1] : NEVER;
      if (idx.t === "union") {
        const types: Type[] = [];
        for (const i of idx.types) {
          if (i.t !== "literal" || i.lit.kind !== "string") {
            return this.err(at, "only string literals supported when using index access with union");
          }
          const value = i.lit.value;
          const f = obj.fields.find((x) => x.name === value);
          if (f !== undefined) types.push(f.typ);
        }
        return union(types);
      }
      return this.err(at, "unsupported index access type operation");
    }
    if (obj.t === "validated") return { t: "validated", typ: this.typeIndex(at, obj.typ, idx), expr: obj.expr };
    return this.err(at, `unsupported indexed access type operation: obj ${typeDebug(obj)} index ${typeDebug(idx)}`);
  }

  private infer(node: ts.InferTypeNode): Type {
    if (this.inferParams === null) return this.err(node, "infer type outside of infer context");
    this.inferParams.push(node.typeParameter.name.text);
    return generic({ g: "inferred", idx: this.inferParams.length - 1 });
  }

  /** keyof: the keys Encore knows; string, number, arrays and tuples have none it enumerates. */
  keyof(t: Type): Type {
    switch (t.t) {
      case "basic":
        if (t.basic === "any") return union([basic("string"), basic("number"), basic("symbol")]);
        if (["string", "boolean", "number", "bigint", "symbol"].includes(t.basic)) return union([]);
        return NEVER;
      case "enum":
        return union(t.members.map((m) => strLit(m.name)));
      case "array":
      case "tuple":
      case "literal":
        return union([]);
      case "interface":
        return union(t.fields.map((f) => strLit(f.name)));
      case "named":
        return this.keyof(this.underlying(t));
      case "class":
        this.state.report(null, "keyof ClassType not yet supported");
        return NEVER;
      case "optional":
        return this.keyof(t.inner);
      case "union":
        return union(t.types.map((x) => this.keyof(x)));
      case "this":
        return NEVER;
      case "generic":
        return generic({ g: "keyof", source: t });
      case "validated":
        return this.keyof(t.typ);
      case "validation":
        this.state.report(null, "keyof ValidationExpr unsupported");
        return NEVER;
      case "wirespec":
        return this.keyof(t.underlying);
      case "decimal":
      case "function":
        return NEVER;
    }
  }

  /** type_query: `typeof x` and `typeof x.y.z`. */
  private typeQuery(node: ts.TypeQueryNode): Type {
    if (node.typeArguments !== undefined) return this.err(node, "typeof with type args not yet supported");
    const resolve = (name: ts.EntityName): Type => {
      if (ts.isIdentifier(name)) {
        const obj = this.identObj(name.text);
        return obj === null ? this.err(name, "unknown identifier") : this.objType(obj);
      }
      return this.memberProp(resolve(name.left), { ident: name.right });
    };
    return resolve(node.exprName);
  }

  /** type_lit: properties, an index signature, methods and call signatures. */
  typeLit(members: readonly ts.TypeElement[]): Type {
    const fields: Field[] = [];
    let index: [Type, Type] | null = null;
    const calls: { params: Type[]; ret: Type }[] = [];
    for (const m of members) {
      if (ts.isPropertySignature(m)) {
        const name = plainName(m.name);
        if (name === null) {
          this.err(m.name, "unsupported property key");
          continue;
        }
        if (m.type === undefined) {
          this.err(m, "unsupported missing type annotation");
          continue;
        }
        fields.push({ name, typ: this.typ(m.type), optional: m.questionToken !== undefined, node: m });
      } else if (ts.isIndexSignatureDeclaration(m)) {
        const param = m.parameters[0];
        if (param === undefined || !ts.isIdentifier(param.name)) {
          this.err(m, "missing index signature key");
          continue;
        }
        if (param.type === undefined) {
          this.err(param, "missing key type annotation");
          continue;
        }
        index = [this.typ(param.type), this.typ(m.type)];
      } else if (ts.isMethodSignature(m)) {
        const name = plainName(m.name);
        if (name === null) {
          this.err(m.name, ts.isComputedPropertyName(m.name) ? "computed method names not yet supported" : "unsupported method key");
          continue;
        }
        if (m.typeParameters !== undefined) {
          this.err(m.typeParameters[0], "generic methods are not yet supported in object type literals");
          continue;
        }
        const params = m.parameters.flatMap((p) => this.fnParam(p) ?? []);
        const ret =
          m.type !== undefined
            ? this.typ(m.type)
            : this.err(m, "method must have explicit return type annotation (function body parsing not yet supported)");
        fields.push({ name, typ: { t: "function", params, ret }, optional: m.questionToken !== undefined, node: m });
      } else if (ts.isCallSignatureDeclaration(m)) {
        if (m.typeParameters !== undefined) {
          this.err(m.typeParameters[0], "generic call signatures are not yet supported");
          continue;
        }
        const params = m.parameters.flatMap((p) => this.fnParam(p)?.typ ?? []);
        const ret = m.type !== undefined ? this.typ(m.type) : this.err(m, "call signature must have explicit return type annotation");
        calls.push({ params, ret });
      } else if (ts.isConstructSignatureDeclaration(m)) {
        this.err(m, "constructor signatures are not yet supported in object type literals");
      } else if (ts.isGetAccessorDeclaration(m)) {
        this.err(m, "getter signatures are not yet supported in object type literals");
      } else if (ts.isSetAccessorDeclaration(m)) {
        this.err(m, "setter signatures are not yet supported in object type literals");
      }
    }
    return { t: "interface", fields, index, call: calls.length > 0 ? calls : null };
  }

  /** parse_function_param / the patterns parse_function accepts; a default value is not accepted there. */
  private fnParam(p: ts.ParameterDeclaration, allowDefault = true): FnParam | null {
    if (!allowDefault && p.initializer !== undefined) {
      this.err(p, "pattern not yet supported in function parameters");
      return null;
    }
    const typ = p.type !== undefined ? this.typ(p.type) : basic("any");
    const rest = p.dotDotDotToken !== undefined;
    const name = ts.isIdentifier(p.name) ? p.name.text : null;
    return { name, typ, optional: !rest && p.questionToken !== undefined, rest };
  }

  /** parse_function: a function declaration's type. */
  private functionType(decl: ts.FunctionDeclaration): Type {
    if (decl.typeParameters !== undefined) this.err(decl.typeParameters[0], "generic functions are not yet supported");
    const params = decl.parameters.flatMap((p) => this.fnParam(p, false) ?? []);
    const ret =
      decl.type !== undefined
        ? this.typ(decl.type)
        : this.err(decl, "function must have explicit return type annotation (function body parsing not yet supported)");
    return { t: "function", params, ret };
  }

  private litType(node: ts.LiteralTypeNode): Type {
    const l = node.literal;
    if (l.kind === ts.SyntaxKind.NullKeyword) return basic("null");
    if (l.kind === ts.SyntaxKind.TrueKeyword || l.kind === ts.SyntaxKind.FalseKeyword) {
      return literal({ kind: "boolean", value: l.kind === ts.SyntaxKind.TrueKeyword });
    }
    if (ts.isStringLiteral(l)) return strLit(l.text);
    if (ts.isNumericLiteral(l)) return literal({ kind: "number", value: Number(l.text) });
    if (ts.isBigIntLiteral(l)) return literal({ kind: "bigint", value: l.text.replace(/n$/, "") });
    if (ts.isPrefixUnaryExpression(l) && ts.isNumericLiteral(l.operand)) {
      const v = Number(l.operand.text);
      return literal({ kind: "number", value: l.operator === ts.SyntaxKind.MinusToken ? -v : v });
    }
    if (ts.isNoSubstitutionTemplateLiteral(l)) {
      this.err(node, "template literal expression not yet supported");
      return strLit("");
    }
    return this.err(node, `unsupported: TsLitType(..)`);
  }

  /** type_ref: type parameters, the mapped key, `infer` names, then objects and Encore's special types. */
  private typeRef(node: ts.TypeReferenceNode): Type {
    let obj: Obj | null;
    const name = node.typeName;
    if (ts.isIdentifier(name)) {
      const idx = this.typeParams.findIndex((p) => p.name.text === name.text);
      if (idx >= 0) {
        const arg = this.typeArgs[idx];
        if (arg !== undefined) return arg;
        const c = this.typeParams[idx].constraint;
        return generic({ g: "type-param", idx, constraint: c !== undefined ? this.typ(c) : null });
      }
      if (this.mappedKeyId !== null && name.text === this.mappedKeyId) return this.mappedKeyType ?? generic({ g: "mapped-key" });
      if (this.inferParams !== null) {
        const i = this.inferParams.indexOf(name.text);
        if (i >= 0) return this.inferArgs[i] ?? generic({ g: "inferred", idx: i });
      }
      obj = this.identObj(name.text);
      if (obj === null) return this.err(name, "unknown identifier");
    } else {
      obj = this.qualifiedNameObj(name);
      if (obj === null) return this.err(name, "unknown qualified name");
    }

    if (obj.name === "Date" && this.state.isUniverse(obj.module.id)) return basic("Date");
    const args = (node.typeArguments ?? []).map((t) => this.typ(t));
    if (obj.name === "Array" && this.state.isUniverse(obj.module.id)) return { t: "array", elem: args.at(-1) ?? NEVER };
    if (obj.name !== null && obj.name in WIRE_SPECS && this.state.isModulePath(obj.module.id, "encore.dev/api")) {
      const spec = this.wireSpec(node, WIRE_SPECS[obj.name], args);
      if (spec !== null) return spec;
    }
    if (obj.name === "Decimal" && this.state.isModulePath(obj.module.id, "encore.dev/types")) return { t: "decimal" };
    if (obj.name === "Attribute" && this.state.isModulePath(obj.module.id, "encore.dev/pubsub")) {
      const spec = this.wireSpec(node, "pubsub-attr", args);
      if (spec !== null) return spec;
    }
    switch (obj.kind.k) {
      case "type-name": {
        if (this.state.isModulePath(obj.module.id, "encore.dev/validate")) {
          const expr = this.validation(node, obj.name, args);
          if (expr !== null) return { t: "validation", expr };
        }
        return { t: "named", obj, args };
      }
      case "enum":
      case "class":
        return { t: "named", obj, args };
      case "var":
      case "using":
      case "func":
        return this.err(node, "value used as type");
      case "module":
        return this.err(node, "module used as type");
      case "namespace":
        return this.err(node, "namespace used as type");
    }
  }

  private qualifiedNameObj(qn: ts.QualifiedName): Obj | null {
    const obj = ts.isIdentifier(qn.left) ? this.identObj(qn.left.text) : this.qualifiedNameObj(qn.left);
    if (obj === null) return null;
    const name = qn.right.text;
    const cannot: Partial<Record<Obj["kind"]["k"], string>> = {
      "type-name": "type",
      enum: "enum",
      var: "variable",
      using: "using",
      func: "function",
      class: "class",
    };
    const what = cannot[obj.kind.k];
    if (what !== undefined) {
      this.state.report(qn.right, `cannot yet resolve qualified name on ${what}`);
      return null;
    }
    if (obj.kind.k === "module") return this.state.namedExport(obj.kind.ns.data, obj.kind.ns.base.path, name);
    if (obj.kind.k === "namespace")
      return name === "default" ? obj.kind.data.defaultExport : (obj.kind.data.namedExports.get(name) ?? null);
    return null;
  }

  /** conditional: distributes over a union when the checked type is a naked type parameter. */
  private conditional(node: ts.ConditionalTypeNode): Type {
    const check = this.typ(node.checkType);
    const inferParams: string[] = [];
    const ext = this.with({ inferParams }).typ(node.extendsType);
    const c = node.checkType;
    if (
      check.t === "union" &&
      ts.isTypeReferenceNode(c) &&
      c.typeArguments === undefined &&
      ts.isIdentifier(c.typeName) &&
      this.typeParams.some((p) => p.name.text === (c.typeName as ts.Identifier).text)
    ) {
      return simplifyUnion(
        check.types.map((t) => {
          const r = assignable(this.env(), t, ext);
          if (r === true) return this.typ(node.trueType);
          if (r === false) return this.typ(node.falseType);
          return generic({
            g: "conditional",
            check: t,
            extends: ext,
            whenTrue: this.typ(node.trueType),
            whenFalse: this.typ(node.falseType),
          });
        }),
      );
    }
    const r = extendsType(this.env(), check, ext);
    if (r === "no") return this.typ(node.falseType);
    if (r === "unknown") {
      return generic({
        g: "conditional",
        check,
        extends: ext,
        whenTrue: this.with({ inferParams }).typ(node.trueType),
        whenFalse: this.typ(node.falseType),
      });
    }
    return this.with({ inferParams, inferArgs: inferredArgs(r.yes) }).typ(node.trueType);
  }

  private typeAliasDecl(decl: ts.TypeAliasDeclaration): Type {
    return this.with({ typeParams: decl.typeParameters ?? [] }).typ(decl.type);
  }

  private interfaceDecl(decl: ts.InterfaceDeclaration): Type {
    const ctx = decl.typeParameters !== undefined ? this.with({ typeParams: decl.typeParameters }) : this;
    return ctx.doInterfaceDecl(decl);
  }

  /** do_interface_decl: the body, intersected with each `extends`. */
  private doInterfaceDecl(decl: ts.InterfaceDeclaration): Type {
    let result = this.typeLit(decl.members);
    for (const clause of decl.heritageClauses ?? []) {
      for (const ext of clause.types) {
        let t: Type;
        if (ext.typeArguments !== undefined) {
          const obj = this.resolveObj(ext.expression);
          if (obj === null) {
            this.err(ext, "extends with non-ident type");
            continue;
          }
          t = this.concrete({ t: "named", obj, args: ext.typeArguments.map((a) => this.typ(a)) });
        } else t = this.expr(ext.expression);
        result = intersect(this.intersectEnv(), result, t);
      }
    }
    return result;
  }

  // ---- expressions (Ctx::expr), for `typeof`, enum initializers and `extends` -------------

  expr(e: ts.Expression): Type {
    if (e.kind === ts.SyntaxKind.ThisKeyword) return { t: "this" };
    if (e.kind === ts.SyntaxKind.SuperKeyword) return this.err(e, "super prop not yet supported");
    if ((e.flags & ts.NodeFlags.OptionalChain) !== 0) return this.err(e, "optional chaining not yet supported");
    if (ts.isArrayLiteralExpression(e)) return this.arrayLit(e);
    if (ts.isObjectLiteralExpression(e)) return this.objectLit(e);
    if (ts.isFunctionExpression(e)) return this.err(e, "fn expr not yet supported");
    if (ts.isVoidExpression(e)) return basic("undefined");
    if (ts.isTypeOfExpression(e)) return basic("string");
    if (ts.isDeleteExpression(e)) return this.expr(e.expression);
    if (ts.isPrefixUnaryExpression(e)) {
      if (e.operator === ts.SyntaxKind.PlusToken) return basic("number");
      if (e.operator === ts.SyntaxKind.MinusToken) {
        const v = this.expr(e.operand);
        return v.t === "literal" && v.lit.kind === "number" ? literal({ kind: "number", value: -v.lit.value }) : v;
      }
      return this.expr(e.operand);
    }
    if (ts.isPostfixUnaryExpression(e)) return this.expr(e.operand);
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment) return this.expr(e.right);
      if (op === ts.SyntaxKind.CommaToken) return this.expr(e.right);
      const left = this.expr(e.left);
      const right = this.expr(e.right);
      return unionMerge(left, right) ?? left;
    }
    if (ts.isPropertyAccessExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.SuperKeyword) return this.err(e, "super prop not yet supported");
      return this.memberProp(this.expr(e.expression), { ident: e.name });
    }
    if (ts.isElementAccessExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.SuperKeyword) return this.err(e, "super prop not yet supported");
      return this.memberProp(this.expr(e.expression), { computed: e.argumentExpression });
    }
    if (ts.isConditionalExpression(e)) return simplifyOrUnion(this.expr(e.whenTrue), this.expr(e.whenFalse));
    if (ts.isCallExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.SuperKeyword || e.expression.kind === ts.SyntaxKind.ImportKeyword) {
        return this.err(e, "super/import calls not yet supported");
      }
      return this.returnType(e, this.expr(e.expression));
    }
    if (ts.isNewExpression(e)) {
      if (e.typeArguments !== undefined) return this.with({ typeArgs: e.typeArguments.map((t) => this.typ(t)) }).expr(e.expression);
      return this.expr(e.expression);
    }
    if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) {
      const obj = this.identObj(e.text);
      return obj === null ? this.err(e, "unknown identifier") : { t: "named", obj, args: [] };
    }
    if (ts.isStringLiteral(e)) return strLit(e.text);
    if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) {
      return literal({ kind: "boolean", value: e.kind === ts.SyntaxKind.TrueKeyword });
    }
    if (ts.isNumericLiteral(e)) return literal({ kind: "number", value: Number(e.text) });
    if (e.kind === ts.SyntaxKind.NullKeyword) return basic("null");
    if (ts.isBigIntLiteral(e)) return basic("bigint");
    if (ts.isRegularExpressionLiteral(e)) return this.err(e, "regex not yet supported");
    if (ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e)) return basic("string");
    if (ts.isTaggedTemplateExpression(e)) return this.err(e, "tagged template not yet supported");
    if (ts.isArrowFunction(e)) return this.err(e, "arrow expr not yet supported");
    if (ts.isClassExpression(e)) return this.err(e, "class expr not yet supported");
    if (ts.isYieldExpression(e)) return e.expression !== undefined ? this.expr(e.expression) : basic("undefined");
    if (ts.isMetaProperty(e)) {
      return e.keywordToken === ts.SyntaxKind.NewKeyword ? this.err(e, "new.target not yet supported") : basic("object");
    }
    if (ts.isAwaitExpression(e)) {
      const p = this.expr(e.expression);
      if (p.t === "named" && p.obj.name === "Promise" && this.state.isUniverse(p.obj.module.id) && p.args.length > 0) return p.args[0];
      return basic("unknown");
    }
    if (ts.isParenthesizedExpression(e)) return this.expr(e.expression);
    if (ts.isJsxElement(e) || ts.isJsxSelfClosingElement(e) || ts.isJsxFragment(e)) return NEVER;
    if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) return isConstAssertion(e) ? this.expr(e.expression) : this.typ(e.type);
    if (ts.isSatisfiesExpression(e)) return this.expr(e.expression);
    if (ts.isExpressionWithTypeArguments(e)) {
      const args = e.typeArguments ?? [];
      return args.length > 0 ? this.with({ typeArgs: args.map((t) => this.typ(t)) }).expr(e.expression) : this.expr(e.expression);
    }
    if (ts.isNonNullExpression(e)) {
      const base = this.expr(e.expression);
      if (base.t === "optional") return base.inner;
      if (base.t === "union") {
        const rest = base.types.filter((t) => !isBasic(t, "undefined") && !isBasic(t, "null"));
        return rest.length === 0 ? NEVER : rest.length === 1 ? rest[0] : union(rest);
      }
      return base;
    }
    return NEVER;
  }

  /** array_lit: every element is evaluated, but the element list is never filled: an empty union. */
  private arrayLit(lit: ts.ArrayLiteralExpression): Type {
    for (const el of lit.elements) {
      if (ts.isOmittedExpression(el)) continue;
      this.expr(ts.isSpreadElement(el) ? el.expression : el);
    }
    return union([]);
  }

  /** object_lit: the literal types of its values are kept. */
  private objectLit(lit: ts.ObjectLiteralExpression): Type {
    const fields: Field[] = [];
    for (const p of lit.properties) {
      if (ts.isSpreadAssignment(p)) {
        const t = this.expr(p.expression);
        if (t.t === "interface") fields.push(...t.fields);
        else this.err(p, "unsupported spread");
        continue;
      }
      let name: string;
      let typ: Type;
      if (ts.isShorthandPropertyAssignment(p)) {
        if (p.objectAssignmentInitializer !== undefined) return this.err(p, "unsupported assign in object literal");
        const obj = this.identObj(p.name.text);
        if (obj === null) return this.err(p.name, "unknown identifier");
        name = p.name.text;
        typ = this.objType(obj);
      } else if (ts.isPropertyAssignment(p)) {
        name = this.propName(p.name);
        typ = this.expr(p.initializer);
      } else {
        // Getters, setters and methods: their type would need the function body.
        name = this.propName(p.name);
        typ = basic("unknown");
      }
      fields.push({ name, typ, optional: false, node: p });
    }
    return { t: "interface", fields, index: null, call: null };
  }

  /** resolve_member_prop: `x.y` on the types that have members to Encore. */
  private memberProp(obj: Type, prop: { ident: ts.Identifier | ts.PrivateIdentifier } | { computed: ts.Expression }): Type {
    const at = "ident" in prop ? prop.ident : prop.computed;
    const key = (): string | number | null => {
      if ("ident" in prop) return prop.ident.text;
      const k = this.expr(prop.computed);
      return k.t === "literal" && (k.lit.kind === "string" || k.lit.kind === "number") ? k.lit.value : null;
    };
    switch (obj.t) {
      case "enum": {
        const k = key();
        const m = obj.members.find((x) => k !== null && x.name === (typeof k === "number" ? numberKey(k) : k));
        return m === undefined ? NEVER : literal(m.value);
      }
      case "interface": {
        const k = key();
        const f = obj.fields.find((x) => k !== null && x.name === (typeof k === "number" ? numberKey(k) : k));
        if (f !== undefined) return f.typ;
        return obj.index !== null ? obj.index[1] : NEVER;
      }
      case "named":
        return this.memberProp(this.underlying(obj), prop);
      case "validated":
        return this.memberProp(obj.typ, prop);
      case "wirespec":
        return this.memberProp(obj.underlying, prop);
      case "decimal":
        return NEVER;
      case "function":
        return this.err(at, "member access on function type not yet supported");
      default:
        return this.err(at, `unsupported member on type ${typeText(obj)}`);
    }
  }

  /** prop_name_to_string. */
  private propName(name: ts.PropertyName): string {
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
    if (ts.isNumericLiteral(name)) return numberKey(Number(name.text));
    if (ts.isBigIntLiteral(name)) return name.text.replace(/n$/, "");
    if (ts.isComputedPropertyName(name)) {
      const k = this.expr(name.expression);
      if (k.t === "literal" && k.lit.kind === "string") return k.lit.value;
      if (k.t === "literal" && k.lit.kind === "number") return numberKey(k.lit.value);
      this.err(name.expression, "unsupported computed prop");
      return "";
    }
    return "";
  }

  /** get_return_type. */
  private returnType(call: ts.CallExpression, callee: Type): Type {
    if (callee.t === "function") return callee.ret;
    if (callee.t === "named") return this.returnType(call, this.underlying(callee));
    if (callee.t === "interface") {
      if (callee.call === null) return this.err(call, "cannot call non-callable interface");
      if (callee.call.length === 1) return callee.call[0].ret;
      return this.err(call, "cannot call interface with multiple overloaded signatures (overload resolution not yet implemented)");
    }
    return this.err(call, `cannot call non-function type ${typeText(callee)}`);
  }

  // ---- objects --------------------------------------------------------------------------

  /** obj_type: an object's type, computed once; a reference back into one being computed is an error. */
  objType(obj: Obj): Type {
    if (obj.kind.k === "module") return NEVER;
    if (obj.state.s === "done") return obj.state.typ;
    if (obj.state.s === "in-progress") return this.err(obj.node, "circular type reference");
    obj.state = { s: "in-progress" };
    const typ = new Ctx(this.state, obj.module.id, typeParamsOf(obj)).resolveObjType(obj);
    obj.state = { s: "done", typ };
    return typ;
  }

  private resolveObjType(obj: Obj): Type {
    const k = obj.kind;
    switch (k.k) {
      case "type-name":
        return ts.isInterfaceDeclaration(k.decl) ? this.interfaceDecl(k.decl) : this.typeAliasDecl(k.decl);
      case "enum":
        return this.enumType(k.decl);
      case "var":
      case "using":
        return k.typeAnn !== null ? this.typ(k.typeAnn) : k.init !== null ? this.expr(k.init) : NEVER;
      case "func":
        return this.functionType(k.decl);
      case "class":
        return {
          t: "class",
          methods: k.decl.members.flatMap((m) => (ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) ? [m.name.text] : [])),
        };
      case "module":
        return NEVER;
      case "namespace":
        return basic("object");
    }
  }

  private enumType(decl: ts.EnumDeclaration): Type {
    const members: { name: string; value: { kind: "string"; value: string } | { kind: "number"; value: number } }[] = [];
    let prev: (typeof members)[number]["value"] | null = null;
    for (const m of decl.members) {
      let value: (typeof members)[number]["value"];
      const init = m.initializer !== undefined ? this.expr(m.initializer) : null;
      if (init === null) {
        if (prev === null) value = { kind: "number", value: 0 };
        else if (prev.kind === "number") value = { kind: "number", value: prev.value + 1 };
        else {
          this.err(m, "implicit enum value cannot follow string value");
          value = { kind: "number", value: 0 };
        }
      } else if (init.t === "literal" && init.lit.kind === "string") value = { kind: "string", value: init.lit.value };
      else if (init.t === "literal" && init.lit.kind === "number") {
        if (!Number.isInteger(init.lit.value)) this.err(m, "enum value must be an integer");
        value = { kind: "number", value: Math.trunc(init.lit.value) };
      } else {
        this.err(m, "unsupported enum value");
        value = { kind: "number", value: 0 };
      }
      const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText();
      prev = value;
      members.push({ name, value });
    }
    return { t: "enum", members };
  }

  resolveObj(e: ts.Expression): Obj | null {
    const t = this.expr(e);
    return t.t === "named" ? t.obj : null;
  }

  private identObj(name: string): Obj | null {
    return this.state.resolveIdent(this.moduleId, name);
  }

  // ---- concretising (Ctx::concrete and underlying) ----------------------------------------

  /** concrete: substitutes type arguments, infer captures and mapped keys, and evaluates what becomes decidable. */
  concrete(t: Type): Type {
    switch (t.t) {
      case "basic":
      case "literal":
      case "enum":
      case "this":
      case "class":
      case "validation":
      case "decimal":
        return t;
      case "array":
        return { t: "array", elem: this.concrete(t.elem) };
      case "tuple":
        return { t: "tuple", types: t.types.map((x) => this.concrete(x)) };
      case "union":
        return { t: "union", types: t.types.map((x) => this.concrete(x)) };
      case "optional":
        return { t: "optional", inner: this.concrete(t.inner) };
      case "named":
        return t.args.length === 0 ? t : { t: "named", obj: t.obj, args: t.args.map((x) => this.concrete(x)) };
      case "interface":
        return {
          t: "interface",
          fields: t.fields.map((f) => ({ ...f, typ: this.concrete(f.typ) })),
          index: t.index === null ? null : [this.concrete(t.index[0]), this.concrete(t.index[1])],
          call: t.call === null ? null : t.call.map((c) => ({ params: c.params.map((p) => this.concrete(p)), ret: this.concrete(c.ret) })),
        };
      case "validated":
        return { t: "validated", typ: this.concrete(t.typ), expr: t.expr };
      case "wirespec":
        return { ...t, underlying: this.concrete(t.underlying) };
      case "function":
        return { t: "function", params: t.params.map((p) => ({ ...p, typ: this.concrete(p.typ) })), ret: this.concrete(t.ret) };
      case "generic":
        return this.concreteGeneric(t);
    }
  }

  private concreteGeneric(t: Extract<Type, { t: "generic" }>): Type {
    const g = t.generic;
    switch (g.g) {
      case "type-param":
        return this.typeArgs[g.idx] ?? t;
      case "inferred":
        return this.inferArgs[g.idx] ?? t;
      case "keyof":
        return this.keyof(this.concrete(g.source));
      case "intersection": {
        const x = this.concrete(g.x);
        const y = this.concrete(g.y);
        return x === g.x && y === g.y ? t : intersect(this.intersectEnv(), x, y);
      }
      case "conditional":
        return this.concreteConditional(g);
      case "index":
        // Encore evaluates this with Span::default(): its errors point nowhere.
        return this.typeIndex(null, this.concrete(g.source), this.concrete(g.index));
      case "mapped":
        return this.concreteMapped(g);
      case "mapped-key":
        return this.mappedKeyType ?? t;
    }
  }

  private concreteConditional(g: Extract<Type, { t: "generic" }>["generic"] & { g: "conditional" }): Type {
    const check = this.concrete(g.check);
    const ext = this.concrete(g.extends);
    if (g.check.t === "generic" && g.check.generic.g === "type-param" && check.t === "union") {
      const idx = g.check.generic.idx;
      const args = [...this.typeArgs];
      const out: Type[] = [];
      for (const c of check.types) {
        if (args.length > idx) args[idx] = c;
        const nested = this.with({ typeArgs: [...args] });
        const r = assignable(this.env(), c, ext);
        if (r === true) out.push(nested.concrete(g.whenTrue));
        else if (r === false) out.push(nested.concrete(g.whenFalse));
      }
      return simplifyUnion(out);
    }
    const r = extendsType(this.env(), check, ext);
    if (r === "no") return this.concrete(g.whenFalse);
    if (r === "unknown") {
      return generic({ g: "conditional", check, extends: ext, whenTrue: this.concrete(g.whenTrue), whenFalse: this.concrete(g.whenFalse) });
    }
    return this.with({ inferArgs: inferredArgs(r.yes) }).concrete(g.whenTrue);
  }

  /** Evaluates a mapped type over its keys: string literals become fields, string/number/symbol an index signature. */
  private concreteMapped(g: Extract<Type, { t: "generic" }>["generic"] & { g: "mapped" }): Type {
    const fields: Field[] = [];
    let index: [Type, Type] | null = null;
    for (const key of iterUnions(this.underlying(g.inType))) {
      const withKey = this.with({ mappedKeyType: key });
      const value = withKey.concrete(g.valueType);
      if (isBasic(value, "never")) continue;
      const newKey = g.asType !== null ? withKey.underlying(withKey.concrete(g.asType)) : key;
      if (isBasic(newKey, "never")) continue;
      if (newKey.t === "generic") {
        return generic({
          g: "mapped",
          inType: this.concrete(g.inType),
          valueType: this.concrete(g.valueType),
          optional: g.optional,
          asType: g.asType === null ? null : this.concrete(g.asType),
        });
      }
      if (isBasic(newKey, "string") || isBasic(newKey, "number") || isBasic(newKey, "symbol")) {
        index = [newKey, value];
      } else if (newKey.t === "literal" && newKey.lit.kind === "string") {
        const [typ, optional] = value.t === "optional" ? [value.inner, true] : [value, false];
        fields.push({ name: newKey.lit.value, typ, optional, node: null });
      } else {
        this.state.report(null, `unsupported mapped key type: ${typeDebug(newKey)}`);
      }
    }
    if (g.optional !== null) {
      if (index !== null) {
        const v = index[1];
        index = [index[0], g.optional ? (v.t === "optional" ? v : { t: "optional", inner: v }) : v.t === "optional" ? v.inner : v];
      }
      for (const f of fields) f.optional = g.optional;
    }
    return { t: "interface", fields, index, call: null };
  }

  /** underlying_named: the named type's own type, its arguments (defaults filled in) substituted. */
  underlyingNamed(named: Named): Type {
    const params = typeParamsOf(named.obj);
    const args = [...named.args];
    for (const p of params.slice(args.length)) if (p.default !== undefined) args.push(this.typ(p.default));
    const typeArgs = args.map((a) => this.concrete(a));
    const typ = this.objType(named.obj);
    return this.with({ typeParams: params, typeArgs }).underlying(typ);
  }

  /** underlying: the concrete type, with a named type replaced by what it names. */
  underlying(t: Type): Type {
    const c = this.concrete(t);
    return c.t === "named" ? underlyingOf(this.state, c) : c;
  }

  /** For assignable/extends, which unwrap a named type in its own module (Named::underlying). */
  private env(): NamedEnv {
    return { underlyingNamed: (n) => underlyingOf(this.state, n) };
  }

  /** For intersect, which unwraps a named type in the current scope (ctx.underlying_named). */
  private intersectEnv(): IntersectEnv {
    return { underlyingNamed: (n) => this.underlyingNamed(n), reportUnplaced: (m) => this.state.report(null, m) };
  }

  // ---- encore.dev's special types -----------------------------------------------------------

  /** parse_validation: encore.dev/validate's rules, each with a literal argument. */
  private validation(at: ts.Node, name: string | null, args: Type[]): ValidationExpr | null {
    const first = args[0];
    const spec = name === null ? undefined : VALIDATION_RULES[name];
    if (spec === undefined) return null;
    if (spec.arg === null) return { rule: spec.rule } as ValidationExpr;
    const value = first?.t === "literal" ? first.lit.value : null;
    const ok =
      spec.arg === "string"
        ? typeof value === "string"
        : typeof value === "number" && (spec.arg === "number" || (Number.isInteger(value) && value >= 0));
    if (!ok) {
      this.state.report(at, `${name} requires a ${spec.arg === "string" ? "string" : "number"} literal as its first type argument`);
      return null;
    }
    return { rule: spec.rule, value } as ValidationExpr;
  }

  /** parse_wire_spec: Header/Query/Cookie<T?, name?>, HttpStatus, Attribute<T>. */
  private wireSpec(at: ts.Node, location: WireLocation, args: Type[]): Type | null {
    if (location === "httpstatus") {
      if (args.length > 0) {
        this.state.report(at, "HttpStatus doesn't take generic type parameters");
        return null;
      }
      return { t: "wirespec", location, underlying: basic("number"), name: null };
    }
    const [first, second] = args;
    if (first === undefined) return { t: "wirespec", location, underlying: basic("string"), name: null };
    if (second === undefined) {
      if (first.t === "literal" && first.lit.kind === "string")
        return { t: "wirespec", location, underlying: basic("string"), name: first.lit.value };
      return { t: "wirespec", location, underlying: first, name: null };
    }
    let name: string | null = null;
    if (second.t === "literal" && second.lit.kind === "string") name = second.lit.value;
    else this.state.report(at, "expected a string literal as the second type argument");
    return { t: "wirespec", location, underlying: first, name };
  }
}

/** Inferred captures in index order, gaps filled with `unknown`. */
function inferredArgs(yes: [number, Type][]): Type[] {
  const out: Type[] = [];
  for (const [i, t] of [...yes].sort((a, b) => a[0] - b[0])) {
    while (out.length < i) out.push(basic("unknown"));
    out.push(t);
  }
  return out;
}

/** How Rust prints a number used as a key (`1`, `1.5`). */
function numberKey(n: number): string {
  return Number.isInteger(n) ? BigInt(n).toString() : String(n);
}

/** Named::underlying: a named type unwrapped in its own module. */
export function underlyingOf(state: ResolveState, named: Named): Type {
  return new Ctx(state, named.obj.module.id).underlyingNamed(named);
}
