// `export default new Service("name")` in encore.service.ts (apis/service.rs, service_discovery.rs).
import path from "node:path";
import ts from "typescript";
import { bindName, enclosingVariable, isDefaultExport } from "../base/bind";
import { ParseFailure, attempt } from "../base/diagnostics";
import { parseConfigObject } from "../base/literal";
import type { ServiceModel } from "../../model/app-model";
import type { Pass } from "./pass";

/** Finds the services; reports misplaced, bound, non-default, nested and duplicate ones. */
export function collectServices(pass: Pass): ServiceModel[] {
  const found: { svc: ServiceModel; node: ts.Node }[] = [];
  for (const file of pass.files) {
    const decls = file.refs.filter((r) => r.name === "Service" && ts.isNewExpression(r.expr));
    decls.forEach((ref, i) => {
      const expr = ref.expr as ts.NewExpression;
      const svc = attempt(pass.diags, () => parseService(expr, file.rel, i));
      if (svc !== undefined) found.push({ svc, node: expr });
    });
  }
  for (const [i, a] of found.entries()) {
    for (const b of found.slice(i + 1)) {
      const inside = (x: ServiceModel, y: ServiceModel): boolean => x.dir !== y.dir && (y.dir === "" || x.dir.startsWith(`${y.dir}/`));
      if (inside(b.svc, a.svc)) {
        pass.diags.error(b.node, `service ${b.svc.name} cannot be contained within service ${a.svc.name}`, "service-nested");
      } else if (inside(a.svc, b.svc)) {
        pass.diags.error(a.node, `service ${a.svc.name} cannot be contained within service ${b.svc.name}`, "service-nested");
      } else if (a.svc.name === b.svc.name) {
        pass.diags.error(b.node, `service ${b.svc.name} defined twice`, "service-duplicate");
      }
    }
  }
  return found.map((f) => f.svc).sort((a, b) => a.name.localeCompare(b.name));
}

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

function parseService(expr: ts.NewExpression, rel: string, index: number): ServiceModel {
  if (index > 0) fail(expr, "cannot have multiple service declarations in the same module", "service-multiple");
  if (path.posix.basename(rel) !== "encore.service.ts") {
    fail(expr, "service declarations are only allowed in encore.service.ts", "service-outside-service-file");
  }
  const args = expr.arguments;
  if (args === undefined) fail(expr, "missing constructor arguments", "service-invalid");
  const bound = enclosingVariable(expr);
  if (bound !== null) fail(bindName(bound), "service definitions should not be bound to a variable", "service-bound-to-variable");
  const nameArg = args[0];
  if (nameArg === undefined) fail(expr, "missing resource name as argument[0]", "resource-name-not-literal");
  if (!ts.isStringLiteral(nameArg)) fail(expr, "expected string literal", "resource-name-not-literal");
  if (args[1] !== undefined) parseConfigObject(args[1], ["middlewares"]);
  if (!isDefaultExport(expr)) fail(expr, "service must be default export", "service-not-default-export");
  const dir = path.posix.dirname(rel);
  return { name: nameArg.text, dir: dir === "." ? "" : dir, file: rel };
}
