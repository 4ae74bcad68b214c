// The click reports as the API answers them. It imports nothing, so that the web pages read these
// types from here (web/ui/api.tsx) rather than keep a copy that could drift, as url/link.ts does for links.

/**
 * DeviceKind is a device class clicks are counted under. Spelled as a union of literals, not derived
 * from a list of the kinds: it is part of a response schema, and Encore's type resolver cannot index
 * the type of an array literal (tsparser/src/parser/types/type_resolve.rs, `array_lit` and `type_index`).
 */
export type DeviceKind = "desktop" | "mobile" | "tablet" | "bot";

/** DayClicks is one UTC day's clicks and unique visitors; date is "YYYY-MM-DD". */
export interface DayClicks {
  date: string;
  clicks: number;
  /** Visitors (not bots) whose first click on the link that day this was, per link. */
  uniqueVisitors: number;
}

/** ReferrerClicks counts the clicks from one referring host, "(direct)" for none, or "other". */
export interface ReferrerClicks {
  host: string;
  clicks: number;
}

/** DeviceClicks counts the clicks from one kind of device. */
export interface DeviceClicks {
  kind: DeviceKind;
  clicks: number;
}

/** NamedClicks counts the clicks of one value of a dimension, or of "other" values together. */
export interface NamedClicks {
  name: string;
  clicks: number;
}

/** ClickReport is the clicks of the range, whole and split; each split sums to total. */
export interface ClickReport {
  /** The first day of the range (UTC, "YYYY-MM-DD"). */
  from: string;
  /** The last day of the range, included. */
  to: string;
  /** Every day of the range, oldest first, 0 for days without clicks. */
  days: DayClicks[];
  /** Most clicks first: the top 10 hosts, then "other" for the rest. */
  referrers: ReferrerClicks[];
  /** desktop, mobile, tablet and bot, always all four. */
  devices: DeviceClicks[];
  /** ISO 3166-1 alpha-2 codes ("ZZ": unknown), top 10 and "other". */
  countries: NamedClicks[];
  /** Browser families ("Chrome", "(unknown)"), top 10 and "other". */
  browsers: NamedClicks[];
  /** Operating systems ("iOS", "(unknown)"), top 10 and "other". */
  os: NamedClicks[];
  /** link and qr (scans of the link's QR image), always both. */
  sources: NamedClicks[];
  /** "utm_source / utm_medium / utm_campaign", "(none)" without UTM parameters; top 10 and "other". */
  campaigns: NamedClicks[];
  total: number;
  /** The days' unique visitors added up: one person on two days, or on two links, counts twice. */
  uniqueVisitors: number;
}

/** LinkClicks is one link's share of a report over several links. */
export interface LinkClicks {
  code: string;
  clicks: number;
  uniqueVisitors: number;
}

/** AccountClicks is the report over every link of the caller's, with the links that had most clicks. */
export interface AccountClicks extends ClickReport {
  /** The 10 links with most clicks in the range, most first (ties by code). */
  topLinks: LinkClicks[];
}
