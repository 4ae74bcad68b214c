// The state one analysis shares between its collectors.
import path from "node:path";
import ts from "typescript";
import { type Diagnostics, ParseFailure, attempt } from "../base/diagnostics";
import type { EncoreRef } from "../base/encore-refs";
import type { Loc, ServiceModel } from "../../model/app-model";
import type { SchemaBuilder } from "../types/schema";
import type { TypeSystem } from "../types/system";

export interface Pass {
  program: ts.Program;
  checker: ts.TypeChecker;
  diags: Diagnostics;
  /** Encore's type resolver over the app's files (schema types never go through the checker). */
  types: TypeSystem;
  schemas: SchemaBuilder;
  /** The app's own files with the encore.dev resource uses found in each. */
  files: { sf: ts.SourceFile; rel: string; refs: EncoreRef[] }[];
  /** Filled by the service pass. */
  services: ServiceModel[];
}

/** Parses every matching encore.dev use in the app, recording failures and keeping the rest. */
export function parseEach<T>(pass: Pass, match: (ref: EncoreRef) => boolean, parse: (ref: EncoreRef, rel: string) => T): T[] {
  const out: T[] = [];
  for (const file of pass.files) {
    for (const ref of file.refs) {
      if (!match(ref)) continue;
      const parsed = attempt(pass.diags, () => parse(ref, file.rel));
      if (parsed !== undefined) out.push(parsed);
    }
  }
  return out;
}

/** The new-expression uses of one export (`new Topic(...)`). */
export const isNew =
  (name: EncoreRef["name"]) =>
  (ref: EncoreRef): boolean =>
    ref.name === name && ts.isNewExpression(ref.expr);

/** The service whose directory contains a file (app-relative), or null. */
export function serviceOf(pass: Pass, relFile: string): ServiceModel | null {
  let best: ServiceModel | null = null;
  for (const s of pass.services) {
    const inside = s.dir === "" || relFile.startsWith(`${s.dir}/`);
    if (inside && (best === null || s.dir.length > best.dir.length)) best = s;
  }
  return best;
}

/**
 * The owning service of a resource that must live in one. Encore would silently create an
 * implicit service named after the directory; this runtime requires an encore.service.ts.
 */
export function requireService(pass: Pass, node: ts.Node, what: string): ServiceModel {
  const rel = pass.diags.relPath(node.getSourceFile().fileName);
  const svc = serviceOf(pass, rel);
  if (svc !== null) return svc;
  const dir = path.posix.basename(path.posix.dirname(rel));
  throw new ParseFailure(
    node,
    `${what} is outside any service directory: Encore would create an implicit service "${dir}" for it; ` +
      "add an encore.service.ts with `export default new Service(...)` to its directory (required by this runtime)",
    "resource-outside-service",
  );
}

/** Location of a node, relative to the app root. */
export function locOf(pass: Pass, node: ts.Node): Loc {
  return pass.diags.loc(node);
}
