// `new Bucket(name, { public?, versioned? })` and `bucket.publicUrl()` (infra/objects.rs).
import ts from "typescript";
import { declarationOf } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import { boolLit } from "../base/literal";
import type { BucketModel } from "../../model/app-model";
import { type Pass, isNew, locOf, parseEach } from "./pass";
import { parseNamedResource } from "./resource";

export interface BucketDecl {
  model: BucketModel;
  node: ts.NewExpression;
  binding: ts.VariableDeclaration | null;
}

export function collectBuckets(pass: Pass): BucketDecl[] {
  const buckets = parseEach(pass, isNew("Bucket"), (r, rel) => parseBucket(pass, r.expr as ts.NewExpression, rel));
  checkPublicUrlCalls(pass, buckets);
  return buckets;
}

function parseBucket(pass: Pass, expr: ts.NewExpression, rel: string): BucketDecl {
  const r = parseNamedResource(expr, { configRequired: false, keys: ["versioned", "public"] });
  const nameErr = kebabCaseError(r.name);
  if (nameErr !== null) throw new ParseFailure(expr, `invalid bucket name '${r.name}': ${nameErr}.`, "invalid-bucket-name");
  const flag = (key: string): boolean => {
    const v = r.config?.get(key)?.value;
    return v === undefined ? false : boolLit(v);
  };
  return {
    model: { name: r.name, file: rel, loc: locOf(pass, expr), public: flag("public"), versioned: flag("versioned"), usedBy: [] },
    node: expr,
    binding: r.binding,
  };
}

/** Why a name is not kebab-case (parseutil.rs validate_kebab_case_name), or null. */
function kebabCaseError(name: string): string | null {
  if (name.length === 0 || name.length > 63) return `name must be between 1 and 63 characters long (got ${name.length})`;
  if (!/^[a-z]$/.test(name[0])) return `name must start with a lowercase letter (got '${name[0]}')`;
  if (name.length === 1) return null;
  const last = name[name.length - 1];
  if (!/^[a-z0-9]$/.test(last)) return `name must end with a lowercase letter or digit (got '${last}')`;
  const bad = [...name].findIndex((c) => !/^[a-z0-9-]$/.test(c));
  if (bad >= 0) return `name must only contain lowercase letters, numbers, and dashes (got '${name[bad]}' at position ${bad})`;
  return null;
}

/** Encore rejects `bucket.publicUrl(...)` on a bucket not declared `public: true`. */
function checkPublicUrlCalls(pass: Pass, buckets: BucketDecl[]): void {
  const privateBuckets = new Set(buckets.filter((b) => !b.model.public && b.binding !== null).map((b) => b.binding));
  if (privateBuckets.size === 0) return;
  for (const { sf } of pass.files) {
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === "publicUrl" &&
        privateBuckets.has(declarationOf(node.expression.expression, pass.checker) as ts.VariableDeclaration)
      ) {
        pass.diags.error(node, "cannot call publicUrl on a non-public bucket", "bucket-public-url-not-public");
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}
