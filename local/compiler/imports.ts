// Encore's parser resolves every import declaration that is not `import type` in every module it
// has loaded by then (tsparser/src/parser/usageparser/mod.rs external_binds_to_scan_for, through
// module_loader.rs resolve_import), parsing each module file an import leads to. One it cannot
// resolve or parse fails the build: "unable to resolve module X: <cause>", or the parse error in
// the imported file. ~encore/clients and ~encore/auth always resolve, generated or not.
import ts from "typescript";
import type { Pass } from "./collect/pass";
import { loadErrorMessage } from "./types/loader";
import { isLoadError } from "./types/state";

export function checkImports(pass: Pass): void {
  const loader = pass.types.loader;
  // The modules loaded so far: the app's files and what resolving its types loaded, not what this scan loads.
  for (const m of loader.modules()) {
    for (const stmt of m.sf.statements) {
      if (!ts.isImportDeclaration(stmt) || stmt.importClause?.isTypeOnly || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
      const r = loader.resolveImport(m.path, stmt.moduleSpecifier.text);
      if (r === null || !isLoadError(r)) continue;
      if (r.kind === "parse") {
        const { line, column, message } = r.failure;
        pass.diags.errorAt({ file: pass.diags.relPath(r.file), line, column }, message, "syntax-error");
      } else pass.diags.error(stmt, loadErrorMessage(r), "unresolved-import");
    }
  }
}
