// encore.dev/validate expressions: how Encore combines them (types/validation.rs semantics:
// `&` and `|` flatten into And/Or lists in source order, then one level is simplified). Which
// types each rule fits is types/schema.ts's (Rule::supports_type).
import type { ValidationExpr } from "../../model/app-model";

type Rule = Extract<ValidationExpr, { rule: string }>;

function isRule(e: ValidationExpr): e is Rule {
  return "rule" in e;
}

/** `a & b`: And lists absorb each other, keeping source order. */
export function andExpr(a: ValidationExpr, b: ValidationExpr): ValidationExpr {
  const left = "and" in a ? a.and : [a];
  const right = "and" in b ? b.and : [b];
  return { and: [...left, ...right] };
}

/** `a | b`: Or lists absorb each other, keeping source order. */
export function orExpr(a: ValidationExpr, b: ValidationExpr): ValidationExpr {
  const left = "or" in a ? a.or : [a];
  const right = "or" in b ? b.or : [b];
  return { or: [...left, ...right] };
}

/** Merges two rules of the same bound kind, tightest wins for And, loosest for Or. */
function mergeRules(a: Rule, b: Rule, mode: "and" | "or"): Rule | null {
  if (a.rule !== b.rule || !("value" in a) || !("value" in b)) return null;
  if (typeof a.value !== "number" || typeof b.value !== "number") return null;
  const tighter = (a.rule === "minLen" || a.rule === "minValue") === (mode === "and") ? Math.max : Math.min;
  return { ...a, value: tighter(a.value, b.value) } as Rule;
}

/**
 * Merges same-kind bounds in the top-level list (MinLen<3> & MinLen<5> becomes MinLen<5>) and
 * unwraps a single-element list, as Encore does before handing the schema to its runtime.
 * Merged-away elements are swapped with the list's tail, so order can change as in Encore.
 */
export function simplifyExpr(expr: ValidationExpr): ValidationExpr {
  const mode = "and" in expr ? "and" : "or" in expr ? "or" : null;
  if (mode === null) return expr;
  const exprs = [...(mode === "and" ? (expr as { and: ValidationExpr[] }).and : (expr as { or: ValidationExpr[] }).or)];
  let size = exprs.length;
  for (let i = 0; i < size; i++) {
    let j = i + 1;
    while (j < size) {
      const a = exprs[i];
      const b = exprs[j];
      const merged = isRule(a) && isRule(b) ? mergeRules(a, b, mode) : null;
      if (merged === null) {
        j++;
        continue;
      }
      exprs[i] = merged;
      [exprs[j], exprs[size - 1]] = [exprs[size - 1], exprs[j]];
      size--;
    }
  }
  exprs.length = size;
  if (exprs.length === 1) return exprs[0];
  return mode === "and" ? { and: exprs } : { or: exprs };
}
