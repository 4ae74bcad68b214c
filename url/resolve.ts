// GET and HEAD /:code: sends the visitor on; a GET counts a click.
import { currentRequest, type APICallMeta } from "encore.dev";
import { api } from "encore.dev/api";
import { prefersHtml } from "./accept";
import { isLinkCode } from "./alias";
import { countClick } from "./clicks";
import { goneError, peekLink, type Resolution } from "./resolution";
import { describeAgent } from "./user-agent";
import { describeVisit, type Visit } from "./visit";
import { writeGonePage, writeVisitorPage } from "./visitor-page";
import { continued, pageWithReport, warningPage } from "./abuse/pages";

/**
 * resolve answers a browser (Accept prefers text/html) with a bare 302 to the target and any other
 * client with 200 `{"url": ...}`. A code that leads nowhere answers a browser with a small page
 * (url/visitor-page.ts: not found, expired, click limit reached, password form) and an API client with
 * Encore's JSON error, both with the same status. HEAD, which link checkers send, gets the same status
 * and headers with no body, and counts no click. Encore's gateway routes HEAD only to endpoints that
 * declare it.
 *
 * It is a raw endpoint, though under Encore a typed one costs the JavaScript thread less, because only
 * a raw endpoint can answer a browser with an HTML page and its status: a typed one always answers a
 * JSON body (url/README.md, "Redirects"). Errors are still Encore's: a raw handler that throws an
 * APIError before writing gets the standard error response (runtimes/js/src/raw_api.rs coerces the
 * rejection).
 */
export const resolve = api.raw({ expose: true, method: ["GET", "HEAD"], path: "/:code" }, async (req, resp) => {
  const code = codeParam(req.url ?? "");
  const head = req.method === "HEAD";
  const browser = prefersHtml(req.headers.accept);
  const search = searchOf(req.url ?? "");
  // A flagged link's warning is for browsers: an API client, or a visit that continued past it, counts.
  const resolution = head
    ? await peekLink(code, describeAgent(req.headers["user-agent"]).os)
    : await recordClick(code, describeVisit(req.url ?? "", req.headers), false, !browser || continued(search));
  if ("gone" in resolution && !browser) throw goneError(resolution.gone);

  // Every visit must reach us to be counted, and the answer depends on Accept.
  resp.setHeader("Cache-Control", "no-store");
  resp.setHeader("Vary", "Accept");
  if ("gone" in resolution) {
    const { gone } = resolution;
    if (gone === "disabled" || gone === "password_required") writeVisitorPage(resp, pageWithReport(gone, code), head);
    else writeGonePage(resp, gone, head);
    return;
  }
  const target = "target" in resolution ? resolution.target : resolution.warn;
  if ("warn" in resolution && browser) {
    writeVisitorPage(resp, warningPage(code, target, search), head);
  } else if (browser) {
    resp.writeHead(302, { Location: target });
    resp.end();
  } else {
    const body = JSON.stringify({ url: target });
    resp.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    resp.end(head ? undefined : body);
  }
});

/**
 * codeParam is the :code path parameter. A path that is "/" and a well-formed code, nearly every
 * request, is read as it is: the router would decode it to the same string. Any other (percent-encoded,
 * with a trailing slash) is left to the SDK's currentRequest(), which costs about 5 µs and 3 KB per
 * call on Node 20, since its `{ ...base, ...api }` gets a hidden class of its own each time
 * (bench/README.md), too much for the hottest path.
 */
function codeParam(pathAndQuery: string): string {
  const query = pathAndQuery.indexOf("?");
  const plain = pathAndQuery.slice(1, query === -1 ? undefined : query);
  if (isLinkCode(plain)) return plain;
  return String((currentRequest() as APICallMeta).pathParams.code);
}

/** searchOf is a path's query string without its "?", "" for none. */
function searchOf(pathAndQuery: string): string {
  const query = pathAndQuery.indexOf("?");
  return query === -1 ? "" : pathAndQuery.slice(query + 1);
}

/**
 * recordClick counts one click on `code` and returns where it leads. The click joins this instance's
 * next group-committed batch and is committed when this returns; a malformed code never reaches the
 * database, and a link that leads nowhere counts nothing. Only an `unlocked` visit (its password was
 * checked) counts on a protected link, and only a `warned` one (it continued past the warning page, or
 * gets none) on a flagged link.
 */
export function recordClick(code: string, visit: Visit, unlocked = false, warned = false): Promise<Resolution> {
  // Not async: a resolve is the hottest path, and an async wrapper adds a promise to each click.
  if (!isLinkCode(code)) return Promise.resolve({ gone: "not_found" });
  return countClick({ code, ...visit, unlocked, warned });
}
