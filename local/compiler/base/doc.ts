// Doc comments as Encore's parser keeps them for the catalog: the comment right above a declaration,
// `/** ... */` or `//` lines, without comment markers.
import ts from "typescript";

/** The doc comment of the statement holding `node`, or null. */
export function docComment(node: ts.Node): string | null {
  let stmt: ts.Node = node;
  while (stmt.parent !== undefined && !ts.isSourceFile(stmt.parent)) stmt = stmt.parent;
  const text = stmt.getSourceFile().text;
  const all = ts.getLeadingCommentRanges(text, stmt.getFullStart()) ?? [];
  // Only the comments touching the declaration: a blank line ends the doc comment.
  let first = all.length;
  let next = stmt.getStart();
  while (first > 0 && !/\n[ \t]*\n/.test(text.slice(all[first - 1].end, next))) next = all[--first].pos;
  const lines: string[] = [];
  for (const r of all.slice(first)) {
    const raw = text.slice(r.pos, r.end);
    if (r.kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      lines.push(
        ...raw
          .replace(/^\/\*+/, "")
          .replace(/\*+\/$/, "")
          .split("\n")
          .map((l) => l.replace(/^\s*\* ?/, "").trimEnd()),
      );
    } else {
      lines.push(raw.replace(/^\/\/\s?/, ""));
    }
  }
  const doc = lines.join("\n").trim();
  return doc === "" ? null : doc;
}
