// Encore's parser resolves every import declaration that is not `import type` in every file it parses
// (tsparser/src/parser/usageparser/mod.rs `external_binds_to_scan_for`, module_loader.rs `resolve_import`)
// and fails the build on one it cannot resolve: "unable to resolve module X". It special-cases the two
// generated modules, ~encore/clients and ~encore/auth, which need not exist yet.
import { createRequire, isBuiltin } from "node:module";
import ts from "typescript";
import type { Pass } from "./pass";

const GENERATED = new Set(["~encore/clients", "~encore/auth"]);

/** Resolution as a bundler does it (package exports, .js for .ts), allowing plain JS and JSON targets. */
const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
};

export function checkImports(pass: Pass): void {
  const cache = ts.createModuleResolutionCache(process.cwd(), (f) => f, OPTIONS);
  const resolvable = (specifier: string, from: string): boolean => {
    if (GENERATED.has(specifier) || isBuiltin(specifier)) return true;
    if (ts.resolveModuleName(specifier, from, OPTIONS, ts.sys, cache).resolvedModule !== undefined) return true;
    // A package that only exports to require() (Node's resolver reads it; the bundler conditions do not).
    try {
      createRequire(from).resolve(specifier);
      return true;
    } catch {
      return false;
    }
  };
  for (const { sf } of pass.files) {
    for (const stmt of sf.statements) {
      if (!ts.isImportDeclaration(stmt) || stmt.importClause?.isTypeOnly || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
      const specifier = stmt.moduleSpecifier.text;
      if (!resolvable(specifier, sf.fileName)) pass.diags.error(stmt, `unable to resolve module ${specifier}`, "unresolved-import");
    }
  }
}
