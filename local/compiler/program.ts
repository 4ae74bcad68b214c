// Builds the one TypeScript Program the analyzer reads the app through.
import path from "node:path";
import ts from "typescript";

/** Our own options, never the app's tsconfig (fixtures have none): the template's settings. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts"],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  allowSyntheticDefaultImports: true,
  isolatedModules: true,
};

/**
 * Parsed files outside the app (TypeScript's lib, node_modules) shared between analyses in one
 * process: the tests analyze dozens of fixtures, and those files never change underneath us.
 */
const sharedFiles = new Map<string, ts.SourceFile>();

function isShared(fileName: string): boolean {
  return fileName.includes("/node_modules/") || path.dirname(fileName) === libDir;
}

const libDir = path.dirname(ts.getDefaultLibFilePath(OPTIONS));

/**
 * Which imports the program follows: the app's own files and encore.dev. Everything else
 * (node:*, npm packages, `~encore/*`) stays unresolved and reads as `any`: nothing the app model
 * needs comes from there, generated code may not exist yet when we analyze, and following them
 * would parse all of @types/node on every run (about a second).
 */
function followed(specifier: string): boolean {
  return specifier.startsWith(".") || specifier === "encore.dev" || specifier.startsWith("encore.dev/");
}

/** Creates a Program over the given absolute .ts file names. */
export function createAppProgram(fileNames: string[]): ts.Program {
  const host = ts.createCompilerHost(OPTIONS, true);
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => f, OPTIONS);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, options) =>
    literals.map((lit) =>
      followed(lit.text) ? ts.resolveModuleName(lit.text, containingFile, options, host, cache, redirected) : { resolvedModule: undefined },
    );
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!isShared(fileName)) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    let sf = sharedFiles.get(fileName);
    if (sf === undefined) {
      sf = getSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (sf !== undefined) sharedFiles.set(fileName, sf);
    }
    return sf;
  };
  return ts.createProgram({ rootNames: fileNames, options: OPTIONS, host });
}
