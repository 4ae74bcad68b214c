// Where short links point: the API's own base URL, or the operator's ShortLinkBaseURL.
import { appMeta } from "encore.dev";
import { APIError } from "encore.dev/api";
import { secret } from "encore.dev/config";
import log from "encore.dev/log";

// Optional. Set it when short links must use another host than the API (a short domain in front
// of the gateway), e.g. "https://sho.rt" or "https://example.com/s". Empty means "use the API's".
const shortLinkBaseURL = secret("ShortLinkBaseURL");

/**
 * parseBaseUrl accepts an absolute http(s) URL without credentials, query or fragment and returns
 * it without its trailing slash, ready for "/<code>"; anything else is null.
 */
export function parseBaseUrl(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  const usable =
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.username === "" &&
    url.password === "" &&
    url.search === "" &&
    url.hash === "" &&
    !value.includes("?") &&
    !value.includes("#");
  return usable ? url.href.replace(/\/+$/, "") : null;
}

/** publicBaseUrl is the base of every short link; read per call because the API's base URL can change at start-up. */
export function publicBaseUrl(): string {
  const configured = configuredBaseUrl();
  const value = configured !== "" ? configured : appMeta().apiBaseUrl;
  const base = parseBaseUrl(value);
  if (base === null) {
    // A misconfiguration would mint broken links, so shortening stops until an operator fixes it.
    log.error("no usable base URL for short links: set the ShortLinkBaseURL secret or the API base URL", {
      value,
      from: configured !== "" ? "secret ShortLinkBaseURL" : "appMeta().apiBaseUrl",
    });
    throw APIError.internal("short link base URL is not configured");
  }
  return base;
}

/** ownHosts are the hostnames a target must not point at: the public short-link host and the API's host. */
export function ownHosts(publicBase: string): string[] {
  const api = parseBaseUrl(appMeta().apiBaseUrl);
  return [publicBase, ...(api === null ? [] : [api])].map((base) => new URL(base).hostname);
}

/** shortUrl is the link a visitor follows for `code`. */
export function shortUrl(publicBase: string, code: string): string {
  return `${publicBase}/${code}`;
}

function configuredBaseUrl(): string {
  try {
    return shortLinkBaseURL().trim();
  } catch {
    // Outside local development an unset secret throws ("secret ShortLinkBaseURL is not set"),
    // where locally it reads as "": both mean "not configured".
    return "";
  }
}
