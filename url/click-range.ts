// Which UTC days a click report covers: the last `days` days, or `from` to `to`.
import { APIError } from "encore.dev/api";
import type { MatchesRegexp, Max, Min } from "encore.dev/validate";
import { addDays, daysBetween, isUtcDay, utcDay } from "../lib/utc-day";

/** DEFAULT_DAYS is the window when the request names none. */
export const DEFAULT_DAYS = 30;

/** MAX_DAYS is the longest `days` window. */
export const MAX_DAYS = 366;

/** MAX_SPAN_DAYS is how far apart `from` and `to` may be. */
export const MAX_SPAN_DAYS = 400;

/** A UTC day as the query writes it; isUtcDay checks that it exists. */
type Day = string & MatchesRegexp<"^[0-9]{4}-[0-9]{2}-[0-9]{2}$">;

/** RangeQuery names the days: `days` (the last N UTC days, today included), or both `from` and `to`. */
export interface RangeQuery {
  /** 1 to 366; 30 when neither this nor from and to are given. */
  days?: number & Min<1> & Max<366>;
  /** The first UTC day, "YYYY-MM-DD"; with `to`, instead of `days`. */
  from?: Day;
  /** The last UTC day, "YYYY-MM-DD", at most 400 days after `from`. */
  to?: Day;
}

/** ClickRange is the days a report covers, both included. */
export interface ClickRange {
  from: string;
  to: string;
}

/**
 * clickRange checks a request's days and returns them. The request types check the shapes for
 * Encore's decoder; this checks them again (the CSV export reads its own query) and what no type
 * can say: that the days exist and are in order, and that days and from/to are not mixed.
 */
export function clickRange({ days, from, to }: RangeQuery, today = utcDay(new Date())): ClickRange {
  if (from === undefined && to === undefined) {
    const n = days ?? DEFAULT_DAYS;
    if (!Number.isInteger(n) || n < 1 || n > MAX_DAYS) throw APIError.invalidArgument(`days must be a whole number from 1 to ${MAX_DAYS}`);
    return { from: addDays(today, 1 - n), to: today };
  }
  if (days !== undefined) throw APIError.invalidArgument("give either days or from and to, not both");
  if (from === undefined || to === undefined) throw APIError.invalidArgument("from and to go together");
  for (const [name, day] of [
    ["from", from],
    ["to", to],
  ]) {
    if (!isUtcDay(day)) throw APIError.invalidArgument(`${name} must be a day written YYYY-MM-DD`);
  }
  const span = daysBetween(from, to);
  if (span < 0) throw APIError.invalidArgument("from must not be after to");
  if (span > MAX_SPAN_DAYS) throw APIError.invalidArgument(`from and to may be at most ${MAX_SPAN_DAYS} days apart`);
  return { from, to };
}

/** rangeOfQuery reads days, from and to from a raw request's query string, for clickRange. */
export function rangeOfQuery(params: URLSearchParams): RangeQuery {
  const days = params.get("days");
  if (days !== null && !/^\d+$/.test(days)) throw APIError.invalidArgument(`days must be a whole number from 1 to ${MAX_DAYS}`);
  return { days: days === null ? undefined : Number(days), from: params.get("from") ?? undefined, to: params.get("to") ?? undefined };
}
