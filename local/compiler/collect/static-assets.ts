// `api.static({...})`: Encore's compile-time rules for static assets (apis/api.rs,
// EndpointKind::StaticAssets) with its wording: `dir` is required, a local relative path that
// must be a readable directory; `notFound` must be a file; the path has at most one dynamic
// segment, at the end; `headers` is an object of string or string[] values.
import fs from "node:fs";
import path from "node:path";
import util from "node:util";
import ts from "typescript";
import { ParseFailure } from "../base/diagnostics";
import { type ConfigProps, localRelPathLit, unsignedLit } from "../base/literal";
import type { StaticAssetsModel } from "../../model/app-model";
import type { Pass } from "./pass";
import type { Segment } from "../base/respath";

/** Rust's io::Error display ("No such file or directory (os error 2)"), as Encore prints it. */
function osError(err: NodeJS.ErrnoException): string {
  const entry = err.errno === undefined ? undefined : util.getSystemErrorMap().get(err.errno);
  if (entry === undefined || err.errno === undefined) return err.message;
  const text = entry[1].charAt(0).toUpperCase() + entry[1].slice(1);
  return `${text} (os error ${-err.errno})`;
}

/** Reports a second dynamic segment, or a static one after a dynamic one, at the path. */
function checkStaticPath(pass: Pass, segments: Segment[], pathNode: ts.Node): void {
  let seenDynamic = false;
  for (const seg of segments) {
    if (seenDynamic) {
      const message =
        seg.kind === "literal"
          ? "static assets path cannot have static segments after dynamic segments"
          : "static assets path cannot contain multiple dynamic segments";
      pass.diags.error(pathNode, message, "static-assets-path");
      return;
    }
    if (seg.kind !== "literal") seenDynamic = true;
  }
}

/** Parses `headers: { Name: "v" | ["v", ...] }`; keys other than identifiers and strings are skipped, as Encore skips them. */
function headersLit(expr: ts.Expression): Record<string, string[]> {
  if (!ts.isObjectLiteralExpression(expr)) throw new ParseFailure(expr, "headers must be an object", "static-assets-headers");
  const out: Record<string, string[]> = {};
  for (const prop of expr.properties) {
    if (!ts.isPropertyAssignment(prop)) continue;
    if (!ts.isIdentifier(prop.name) && !ts.isStringLiteral(prop.name)) continue;
    const v = prop.initializer;
    const bad = (node: ts.Node) => new ParseFailure(node, "header value must be a string or array of strings", "static-assets-headers");
    if (ts.isStringLiteral(v)) out[prop.name.text] = [v.text];
    else if (ts.isArrayLiteralExpression(v)) {
      out[prop.name.text] = v.elements.map((e) => {
        if (!ts.isStringLiteral(e)) throw bad(e);
        return e.text;
      });
    } else throw bad(v);
  }
  return out;
}

/**
 * The static-assets part of an `api.static` endpoint. `dir` and `notFound` resolve against the
 * declaring file's directory and are checked on disk now, as `encore run` checks them at compile time.
 */
export function parseStaticAssets(
  pass: Pass,
  cfg: ConfigProps,
  configArg: ts.Expression,
  file: string,
  segments: Segment[],
  pathNode: ts.Node,
): StaticAssetsModel {
  const dirNode = cfg.get("dir")?.value;
  if (dirNode === undefined) throw new ParseFailure(configArg, "static assets must have the 'dir' field set", "static-assets-dir");
  const fileDir = path.dirname(file);
  const appRel = (p: string): string => path.posix.normalize(path.posix.join(fileDir, p.split(path.sep).join("/")));
  const abs = (rel: string): string => path.join(pass.diags.root, rel);

  const dir = appRel(localRelPathLit(dirNode));
  try {
    fs.readdirSync(abs(dir));
  } catch (err) {
    pass.diags.error(dirNode, `unable to read static assets directory: ${osError(err as NodeJS.ErrnoException)}`, "static-assets-dir");
  }

  const notFoundNode = cfg.get("notFound")?.value;
  const notFound = notFoundNode === undefined ? null : appRel(localRelPathLit(notFoundNode));
  if (notFoundNode !== undefined && notFound !== null && !fs.statSync(abs(notFound), { throwIfNoEntry: false })?.isFile()) {
    pass.diags.error(notFoundNode, "file does not exist", "static-assets-not-found");
  }
  checkStaticPath(pass, segments, pathNode);

  const statusNode = cfg.get("notFoundStatus")?.value;
  const headersNode = cfg.get("headers")?.value;
  return {
    dir,
    notFound,
    notFoundStatus: statusNode === undefined ? null : unsignedLit(statusNode, 32),
    headers: headersNode === undefined ? {} : headersLit(headersNode),
  };
}
