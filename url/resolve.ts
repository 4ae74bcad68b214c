// GET and HEAD /:code: sends the visitor on; a GET counts a click.
import { api, type Header, type HttpStatus } from "encore.dev/api";
import { prefersHtml } from "./accept";
import { isLinkCode } from "./alias";
import { countClick } from "./clicks";
import { goneError, peekLink, type Resolution } from "./resolution";
import { describeVisit, type Visit } from "./visit";

/** What a visit to a short link carries that the answer and the click depend on. */
export interface VisitRequest {
  code: string;
  accept?: Header<"Accept">;
  referer?: Header<"Referer">;
  userAgent?: Header<"User-Agent">;
}

/**
 * A browser (Accept prefers text/html) gets a 302 to the target, any other client 200 `{"url": ...}`.
 * Both carry `Cache-Control: no-store` (every visit must reach us to be counted) and `Vary: Accept`.
 */
export interface VisitResponse {
  status: HttpStatus;
  location?: Header<"Location">;
  cacheControl: Header<"Cache-Control">;
  vary: Header<"Vary">;
  /** The target, for API clients; absent from a redirect, whose body is then `{}`. */
  url?: string;
}

/**
 * resolve follows a link and counts the click. Typed rather than raw because under Encore a raw
 * endpoint's request and response cross into JavaScript as Node streams and a metadata object,
 * where a typed one hands the runtime one object each way (url/README.md, "Redirects").
 */
export const resolve = api(
  { expose: true, method: "GET", path: "/:code" },
  async ({ code, accept, referer, userAgent }: VisitRequest): Promise<VisitResponse> => {
    return answer(await recordClick(code, describeVisit(referer, userAgent)), accept);
  },
);

/**
 * peek answers HEAD, which link checkers send, with GET's status and headers, no body and no click.
 * Encore's gateway routes HEAD only to an endpoint that declares it.
 */
export const peek = api(
  { expose: true, method: "HEAD", path: "/:code" },
  async ({ code, accept }: VisitRequest): Promise<VisitResponse> => {
    return answer(await peekLink(code), accept);
  },
);

/** The answer to a visit: the redirect or the target, or the not_found error of a gone link. */
function answer(resolution: Resolution, accept: string | undefined): VisitResponse {
  if ("gone" in resolution) throw goneError(resolution.gone);
  const headers = { cacheControl: "no-store", vary: "Accept" };
  if (prefersHtml(accept)) return { status: 302, location: resolution.target, ...headers };
  return { status: 200, url: resolution.target, ...headers };
}

/**
 * recordClick counts one click on `code` and returns where it leads. The click joins this instance's
 * next group-committed batch and is committed when this returns; a malformed code never reaches the
 * database, and an expired link counts nothing.
 */
export function recordClick(code: string, visit: Visit): Promise<Resolution> {
  // Not async: a resolve is the hottest path, and an async wrapper adds a promise to each click.
  if (!isLinkCode(code)) return Promise.resolve({ gone: "not_found" });
  return countClick({ code, ...visit });
}
