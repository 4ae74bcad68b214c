// What a click records about its visit: where it came from (referrer host, QR code or link, campaign),
// on what (device, browser and system families) and from which country; never an address, a full
// User-Agent or a full referrer URL.
import type { IncomingHttpHeaders } from "node:http";
import { addressKey, clientHop, hopAddress } from "../ratelimit/client-address";
import { isQrScan } from "./qr";
import { countryOfAddress, countryOfHeader, trustedCountryHeader } from "./country";
import { describeAgent, type Agent } from "./user-agent";

/** Source says how the visitor reached the link: through its QR image, or any other way. */
export type Source = "link" | "qr";

/** SOURCES lists every Source, in the order the click history reports them. */
export const SOURCES: readonly Source[] = ["link", "qr"];

/** Visit is what one click records besides its link. */
export interface Visit extends Agent {
  /** The Referer's host ("news.example.com"), or "" when there is none or it has no host. */
  referrerHost: string;
  /** ISO 3166-1 alpha-2, ZZ when unknown. */
  country: string;
  source: Source;
  /** "utm_source / utm_medium / utm_campaign" of the visit's own query, "" without any of them. */
  campaign: string;
  /**
   * Who visited, for the unique-visitor hash alone: the address (an IPv6 one's /64) and the User-Agent,
   * null for a bot. It is hashed with the day's key when the click is written, and then forgotten.
   */
  visitor: string | null;
}

/** The longest DNS name; a longer "host" is not one, and is not stored. */
const MAX_HOST_LENGTH = 253;

/** The most characters kept of each UTM parameter. */
const MAX_UTM_LENGTH = 64;

/** What a campaign shows for a UTM parameter the visit did not name. */
const NOT_SET = "(not set)";

/**
 * describeVisit reads a click's request: its query (`pathAndQuery`), Referer, User-Agent, the client
 * address (X-Forwarded-For, as the rate limiter takes it) and the trusted country header, if any.
 */
export function describeVisit(pathAndQuery: string, headers: IncomingHttpHeaders): Visit {
  const agent = describeAgent(headers["user-agent"]);
  const hop = clientHop(headers["x-forwarded-for"]);
  const countryHeader = trustedCountryHeader();
  const query = pathAndQuery.indexOf("?");
  const params = query === -1 ? null : new URLSearchParams(pathAndQuery.slice(query + 1));
  return {
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    referrerHost: referrerHost(headers.referer),
    country:
      (countryHeader !== null ? countryOfHeader(headers[countryHeader]) : null) ?? countryOfAddress(hop === null ? null : hopAddress(hop)),
    source: params !== null && isQrScan(params) ? "qr" : "link",
    campaign: params === null ? "" : campaign(params),
    visitor: agent.device === "bot" || hop === null ? null : `${addressKey(hop)}\n${headers["user-agent"]}`,
  };
}

/** referrerHost is the lowercase host of a Referer URL, or "" for none, a relative or a malformed one. */
export function referrerHost(referer: string | undefined): string {
  if (referer === undefined || !URL.canParse(referer)) return "";
  const host = new URL(referer).hostname.toLowerCase().replace(/\.$/, "");
  return host.length <= MAX_HOST_LENGTH ? host : "";
}

/** campaign names the visit's UTM campaign by source, medium and name, "" when the query has none of them. */
function campaign(params: URLSearchParams): string {
  const parts = [params.get("utm_source"), params.get("utm_medium"), params.get("utm_campaign")].map(utmValue);
  return parts.every((p) => p === null) ? "" : parts.map((p) => p ?? NOT_SET).join(" / ");
}

/** One UTM parameter as stored: control characters removed, cut to 64 characters (not inside one), trimmed; null when empty. */
function utmValue(value: string | null): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = [...(value?.replace(/[\u0000-\u001f\u007f]/g, "") ?? "")].slice(0, MAX_UTM_LENGTH).join("").trim();
  return clean === "" ? null : clean;
}
