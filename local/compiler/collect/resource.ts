// `new X("name", { ...config })` resources (parseutil.rs NamedClassResource): name and config literals.
import ts from "typescript";
import { enclosingVariable } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import { type ConfigProps, parseConfigObject, stringLit } from "../base/literal";

export interface NamedResource {
  name: string;
  /** null when the config argument is absent (and optional). */
  config: ConfigProps | null;
  configNode: ts.Expression | null;
  /** The variable it is bound to, if any (`const db = new SQLDatabase(...)`). */
  binding: ts.VariableDeclaration | null;
}

/** Parses the name and config object of a resource constructor call. */
export function parseNamedResource(
  expr: ts.NewExpression,
  opts: { nameIdx?: number; configIdx?: number; configRequired: boolean; keys: readonly string[] },
): NamedResource {
  const { nameIdx = 0, configIdx = 1 } = opts;
  const args = expr.arguments;
  if (args === undefined) throw new ParseFailure(expr, "missing constructor arguments", "resource-invalid");
  const nameArg = args[nameIdx];
  if (nameArg === undefined) {
    throw new ParseFailure(expr, `missing resource name as argument[${nameIdx}]`, "resource-name-not-literal");
  }
  if (!ts.isStringLiteral(nameArg)) throw new ParseFailure(expr, "expected string literal", "resource-name-not-literal");
  const configNode = args[configIdx] ?? null;
  if (configNode === null && opts.configRequired) {
    throw new ParseFailure(expr, "missing required config object", "config-expected-object-literal");
  }
  return {
    name: stringLit(nameArg),
    config: configNode === null ? null : parseConfigObject(configNode, opts.keys),
    configNode,
    binding: enclosingVariable(expr),
  };
}
