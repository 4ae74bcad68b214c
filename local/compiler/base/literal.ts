// Reads resource config objects the way Encore's literal parser does (tsparser/litparser*):
// an object literal of known keys whose values are literals, with Encore's error wording.
// Like Encore (which sees swc's AST), `"GET" as const`, parentheses and template strings are
// not literals.
import ts from "typescript";
import { ParseFailure } from "./diagnostics";

/** Fails with a rule-tagged message at a node. */
function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

/** The properties of a config object literal, keyed by name, restricted to the allowed keys. */
export type ConfigProps = Map<string, { prop: ts.PropertyAssignment; value: ts.Expression }>;

/** Parses `{ key: value, ... }` accepting only the given keys (LitParser derive semantics). */
export function parseConfigObject(expr: ts.Expression, allowed: readonly string[]): ConfigProps {
  if (!ts.isObjectLiteralExpression(expr)) fail(expr, "expected object literal", "config-expected-object-literal");
  const props: ConfigProps = new Map();
  for (const prop of expr.properties) {
    if (ts.isSpreadAssignment(prop)) fail(prop, "spread operator unsupported", "config-spread-unsupported");
    if (!ts.isPropertyAssignment(prop)) {
      fail(prop, `prop type ${ts.SyntaxKind[prop.kind]} not supported`, "config-prop-unsupported");
    }
    let key: string;
    if (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) key = prop.name.text;
    else fail(prop, `prop name kind ${ts.SyntaxKind[prop.name.kind]} not supported`, "config-prop-unsupported");
    if (!allowed.includes(key)) fail(prop, "unexpected field", "config-unexpected-field");
    if (props.has(key)) fail(prop, `field ${key} set twice`, "config-duplicate-field");
    props.set(key, { prop, value: prop.initializer });
  }
  return props;
}

/** A required key's value, or Encore's "is required but is missing" error at the object. */
export function requiredProp(props: ConfigProps, key: string, obj: ts.Node): ts.Expression {
  const p = props.get(key);
  if (p === undefined) fail(obj, `field ${key} is required but is missing`, "config-missing-field");
  return p.value;
}

export function stringLit(expr: ts.Expression): string {
  if (!ts.isStringLiteral(expr)) fail(expr, "expected string literal", "config-expected-literal");
  return expr.text;
}

export function boolLit(expr: ts.Expression): boolean {
  if (expr.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expr.kind === ts.SyntaxKind.FalseKeyword) return false;
  fail(expr, "expected boolean literal", "config-expected-literal");
}

export function isNullLit(expr: ts.Expression): boolean {
  return expr.kind === ts.SyntaxKind.NullKeyword;
}

/** An integer constant expression: literals with + - * / % and unary signs (parse_const_bigint). */
function constInt(expr: ts.Expression): bigint {
  if (ts.isNumericLiteral(expr)) {
    const n = Number(expr.text.replace(/_/g, ""));
    if (!Number.isInteger(n)) fail(expr, "expected integer literal", "config-expected-literal");
    return BigInt(n);
  }
  if (ts.isPrefixUnaryExpression(expr)) {
    if (expr.operator === ts.SyntaxKind.MinusToken) return -constInt(expr.operand);
    if (expr.operator === ts.SyntaxKind.PlusToken) return constInt(expr.operand);
    fail(expr, `unsupported unary operator ${ts.tokenToString(expr.operator)}`, "config-expected-literal");
  }
  if (ts.isBinaryExpression(expr)) {
    const x = constInt(expr.left);
    const y = constInt(expr.right);
    switch (expr.operatorToken.kind) {
      case ts.SyntaxKind.PlusToken:
        return x + y;
      case ts.SyntaxKind.MinusToken:
        return x - y;
      case ts.SyntaxKind.AsteriskToken:
        return x * y;
      case ts.SyntaxKind.PercentToken:
        return x % y;
      case ts.SyntaxKind.SlashToken:
        if (y === 0n || x % y !== 0n) fail(expr, "expected integer division", "config-expected-literal");
        return x / y;
      default:
        fail(expr, `expected arithmetic operator, got ${ts.tokenToString(expr.operatorToken.kind)}`, "config-expected-literal");
    }
  }
  fail(expr, "expected integer literal", "config-expected-literal");
}

/** An unsigned integer that fits in `bits` bits (u32 / u64). */
export function unsignedLit(expr: ts.Expression, bits: 32 | 64): number {
  const v = constInt(expr);
  if (v < 0n || v >= 1n << BigInt(bits)) fail(expr, "expected unsigned number literal", "config-expected-literal");
  return Number(v);
}

/** An array literal of string literals (tags). */
export function stringArrayLit(expr: ts.Expression): string[] {
  if (!ts.isArrayLiteralExpression(expr)) fail(expr, "expected array literal", "config-expected-literal");
  return expr.elements.map((e) => stringLit(e));
}

/** A local relative path: no root and no "..", as LocalRelPath requires. */
export function localRelPathLit(expr: ts.Expression): string {
  if (!ts.isStringLiteral(expr)) fail(expr, "expected a local relative path", "config-expected-literal");
  const parts = expr.text.split(/[\\/]/);
  if (expr.text.startsWith("/") || parts.includes("..")) {
    fail(expr, "expected a local relative path", "config-expected-literal");
  }
  return expr.text;
}
