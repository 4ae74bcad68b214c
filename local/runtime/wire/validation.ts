// encore.dev/validate rules checked as Encore's runtime checks them, with its wording
// (runtimes/core/src/api/jsonschema/validation.rs). Lengths of strings are UTF-8 byte lengths.
import type { ValidationExpr } from "../../model/app-model";

/** Returns the first failing rule's message, or null when the value passes. */
export function validate(expr: ValidationExpr, value: unknown): string | null {
  if ("and" in expr) {
    for (const e of expr.and) {
      const err = validate(e, value);
      if (err !== null) return err;
    }
    return null;
  }
  if ("or" in expr) {
    let first: string | null = null;
    for (const e of expr.or) {
      const err = validate(e, value);
      if (err === null) return null;
      first ??= err;
    }
    return first;
  }
  return checkRule(expr, value);
}

function lengthOf(value: unknown): number | null {
  if (typeof value === "string") return Buffer.byteLength(value, "utf8");
  if (Array.isArray(value)) return value.length;
  return null;
}

type Rule = Exclude<ValidationExpr, { and: ValidationExpr[] } | { or: ValidationExpr[] }>;

function checkRule(rule: Rule, value: unknown): string | null {
  switch (rule.rule) {
    case "minLen": {
      const len = lengthOf(value);
      if (len === null) return "unexpected type (expected string or array)";
      return len < rule.value ? `length too short (got ${len}, expected at least ${rule.value})` : null;
    }
    case "maxLen": {
      const len = lengthOf(value);
      if (len === null) return "unexpected type (expected string or array)";
      return len > rule.value ? `length too long (got ${len}, expected at most ${rule.value})` : null;
    }
    case "minValue":
      if (typeof value !== "number") return "unexpected type (expected number)";
      return value < rule.value ? `value must be at least ${rule.value} (got ${value})` : null;
    case "maxValue":
      if (typeof value !== "number") return "unexpected type (expected number)";
      return value > rule.value ? `value must be at most ${rule.value} (got ${value})` : null;
    case "startsWith":
      if (typeof value !== "string") return "unexpected type (expected string)";
      return value.startsWith(rule.value) ? null : `value does not start with ${JSON.stringify(rule.value)}`;
    case "endsWith":
      if (typeof value !== "string") return "unexpected type (expected string)";
      return value.endsWith(rule.value) ? null : `value does not end with ${JSON.stringify(rule.value)}`;
    case "matchesRegexp":
      if (typeof value !== "string") return "unexpected type (expected string)";
      return new RegExp(rule.value, "u").test(value) ? null : `value does not match the regexp ${JSON.stringify(rule.value)}`;
    case "isEmail":
      if (typeof value !== "string") return "unexpected type (expected string)";
      return isEmail(value) ? null : "value is not an email";
    case "isURL":
      if (typeof value !== "string") return "unexpected type (expected string)";
      return URL.canParse(value) ? null : "value is not a url";
  }
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * An addr-spec without display text, close to the email_address crate Encore uses: a dot-atom local
 * part of at most 64 bytes and a domain of labels (or an [IP literal]). Quoted local parts are not
 * accepted here (the crate accepts them; documented difference).
 */
export function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (Buffer.byteLength(local) > 64 || Buffer.byteLength(domain) > 254) return false;
  if (!LOCAL_PART.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) return true;
  return domain.split(".").every((label) => label.length <= 63 && DOMAIN_LABEL.test(label));
}
