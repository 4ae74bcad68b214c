// `const key = secret("Name")` at module top level (infra/secret.rs).
import ts from "typescript";
import { enclosingFunction, enclosingVariable } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import type { EncoreRef } from "../base/encore-refs";
import type { SecretModel } from "../../model/app-model";
import { type Pass, locOf, parseEach, serviceOf } from "./pass";

export function collectSecrets(pass: Pass): SecretModel[] {
  const isSecretCall = (r: EncoreRef): boolean => r.name === "secret" && r.member === null && ts.isCallExpression(r.expr);
  return parseEach(pass, isSecretCall, (r, rel) => parseSecret(pass, r.expr as ts.CallExpression, rel));
}

function parseSecret(pass: Pass, call: ts.CallExpression, rel: string): SecretModel {
  if (enclosingFunction(call) !== null) throw new ParseFailure(call, "secrets must be defined globally", "secret-not-global");
  if (enclosingVariable(call) === null) throw new ParseFailure(call, "secrets must be bound to a variable", "secret-not-bound");
  const arg = call.arguments[0];
  if (arg === undefined) {
    throw new ParseFailure(
      call,
      "secret() takes a single argument, the name of the secret as a string literal",
      "resource-name-not-literal",
    );
  }
  if (!ts.isStringLiteral(arg)) throw new ParseFailure(arg, "expected string literal", "resource-name-not-literal");
  return { name: arg.text, service: serviceOf(pass, rel)?.name ?? null, file: rel, loc: locOf(pass, call) };
}
