// Collects compile-time rule violations with their source positions, so one run reports them all.
import path from "node:path";
import ts from "typescript";
import type { CompileError, Loc } from "../../model/app-model";

/**
 * Rules Encore checks only once everything else passed: its metadata step (legacymeta, which
 * converts types to schemas) runs only on an app without other errors (app/mod.rs
 * validate_and_describe), so its errors show only then.
 */
const METADATA_RULES = new Set(["schema-unsupported-type"]);

/** Collects every violation; analyzeApp throws them together at the end. */
export class Diagnostics {
  readonly errors: CompileError[] = [];
  /** Violations of METADATA_RULES, reported when there are no others. */
  readonly metadataErrors: CompileError[] = [];

  constructor(readonly root: string) {}

  /** The app-relative, forward-slash path of a file. */
  relPath(fileName: string): string {
    return path.relative(this.root, fileName).split(path.sep).join("/");
  }

  /** The 1-based position where a node starts (leading trivia excluded). */
  loc(node: ts.Node): Loc {
    const sf = node.getSourceFile();
    return this.locAt(sf, node.getStart(sf));
  }

  /** The 1-based position of an offset in a file. */
  locAt(sf: ts.SourceFile, pos: number): Loc {
    const { line, character } = sf.getLineAndCharacterOfPosition(pos);
    return { file: this.relPath(sf.fileName), line: line + 1, column: character + 1 };
  }

  /** Records a violation at a node. */
  error(node: ts.Node, message: string, rule: string): void {
    this.errorAt(this.loc(node), message, rule);
  }

  /** Records TypeScript's syntax errors: Encore cannot parse such a file either. */
  syntaxErrors(sf: ts.SourceFile, diagnostics: readonly ts.Diagnostic[]): void {
    for (const d of diagnostics) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
      this.errorAt(this.locAt(sf, d.start ?? 0), `syntax error: ${message}`, "syntax-error");
    }
  }

  /** Records a violation at a file (line 1) when there is no better node. */
  errorAtFile(file: string, message: string, rule: string): void {
    this.errorAt({ file, line: 1, column: 1 }, message, rule);
  }

  /** Records a violation at a position known without a node (swc's, in any file). */
  errorAt(loc: Loc, message: string, rule: string): void {
    (METADATA_RULES.has(rule) ? this.metadataErrors : this.errors).push({ loc, message, rule });
  }

  /** What the app fails with: its errors, else the metadata step's. */
  failures(): CompileError[] {
    return this.errors.length > 0 ? this.errors : this.metadataErrors;
  }
}

/** Thrown inside a parser to abandon one resource; the caller records it and moves on. */
export class ParseFailure extends Error {
  constructor(
    readonly node: ts.Node,
    message: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

/** Runs one resource's parser, turning a ParseFailure into a recorded violation. */
export function attempt<T>(diags: Diagnostics, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ParseFailure) {
      diags.error(err.node, err.message, err.rule);
      return undefined;
    }
    throw err;
  }
}
