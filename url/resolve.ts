// GET /:code: counts a click and sends the visitor on.
import { currentRequest, type APICallMeta } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import { prefersHtml } from "./accept";
import { countClick } from "./clicks";
import { isCode } from "./code";
import { describeVisit, type Visit } from "./visit";

/**
 * resolve answers a browser (Accept prefers text/html) with a bare 302 to the target and any other
 * client with 200 `{"url": ...}`.
 *
 * It is a raw endpoint because the two answers differ in shape, and only a raw endpoint controls the
 * whole wire response. A typed endpoint could set the status (HttpStatus) and Location (Header<>), but
 * it always serializes its body fields: the redirect would carry a JSON `{}` body and an
 * application/json content type. Errors are still Encore's: a raw handler that throws an APIError
 * before writing gets the standard error response (runtimes/js/src/raw_api.rs coerces the rejection).
 */
export const resolve = api.raw({ expose: true, method: "GET", path: "/:code" }, async (req, resp) => {
  const { pathParams } = currentRequest() as APICallMeta;
  const visit = describeVisit(req.headers.referer, req.headers["user-agent"]);
  const target = await recordClick(String(pathParams.code), visit);
  if (target === null) throw APIError.notFound("URL not found");

  // Every visit must reach us to be counted, and the answer depends on Accept.
  resp.setHeader("Cache-Control", "no-store");
  resp.setHeader("Vary", "Accept");
  if (prefersHtml(req.headers.accept)) {
    resp.writeHead(302, { Location: target });
    resp.end();
  } else {
    resp.writeHead(200, { "Content-Type": "application/json" });
    resp.end(JSON.stringify({ url: target }));
  }
});

/**
 * recordClick counts one click on `code` and returns its target, or null for an unknown code. The
 * click joins this instance's next group-committed batch and is committed when this returns; a
 * malformed code never reaches the database.
 */
export async function recordClick(code: string, visit: Visit): Promise<string | null> {
  if (!isCode(code)) return null;
  return countClick({ code, ...visit });
}
