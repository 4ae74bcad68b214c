// RFC 3339 timestamps as Encore reads them from requests: chrono 0.4's DateTime::parse_from_rfc3339
// (runtimes/core/src/api/jsonschema/de.rs; chrono's src/format/parse.rs, parse_rfc3339), with chrono's
// ParseError texts. Unlike `new Date(text)` it refuses a day or time that does not exist
// ("2027-02-30", "24:00") instead of rolling it over, and it needs a "T", "t" or " " and an offset.

const OUT_OF_RANGE = "input is out of range";
const INVALID = "input contains invalid characters";
const TOO_SHORT = "premature end of input";
const TOO_LONG = "trailing input";

class ParseFailure {
  constructor(readonly error: string) {}
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  if (c < 0 || c > 9) throw new ParseFailure(INVALID);
  return c;
}

function twoDigits(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

function expectChar(s: string, i: number, allowed: string): void {
  if (!allowed.includes(s[i])) throw new ParseFailure(INVALID);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The offset ("Z", "+hh:mm", "-hh:mm") at the start of `rest`, in minutes, and how many characters it took. */
function offsetMinutes(rest: string): { minutes: number; length: number } {
  if (rest[0] === "Z" || rest[0] === "z") return { minutes: 0, length: 1 };
  let sign = 1;
  let i = 1;
  if (rest[0] === "-") sign = -1;
  else if (rest.startsWith("\u2212")) sign = -1;
  else if (rest[0] !== "+") throw new ParseFailure(rest === "" ? TOO_SHORT : INVALID);
  if (rest.length < i + 2) throw new ParseFailure(TOO_SHORT);
  const hours = twoDigits(rest, i);
  i += 2;
  if (i >= rest.length) throw new ParseFailure(TOO_SHORT);
  expectChar(rest, i, ":");
  i++;
  if (rest.length < i + 2) throw new ParseFailure(TOO_SHORT);
  if (rest[i] >= "6" && rest[i] <= "9" && rest[i + 1] >= "0" && rest[i + 1] <= "9") throw new ParseFailure(OUT_OF_RANGE);
  if (!(rest[i] >= "0" && rest[i] <= "5")) throw new ParseFailure(INVALID);
  const minutes = twoDigits(rest, i);
  return { minutes: sign * (hours * 60 + minutes), length: i + 2 };
}

/** Milliseconds since the epoch (as a JS Date holds them), or chrono's error text. */
export function parseRfc3339(text: string): { ms: number } | { error: string } {
  try {
    return { ms: parse(text) };
  } catch (e) {
    if (e instanceof ParseFailure) return { error: e.error };
    throw e;
  }
}

function parse(s: string): number {
  if (Buffer.byteLength(s) < 19) throw new ParseFailure(TOO_SHORT);
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2);
  expectChar(s, 4, "-");
  const month = twoDigits(s, 5);
  expectChar(s, 7, "-");
  const day = twoDigits(s, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw new ParseFailure(OUT_OF_RANGE);
  expectChar(s, 10, "Tt ");
  const hour = twoDigits(s, 11);
  expectChar(s, 13, ":");
  const minute = twoDigits(s, 14);
  expectChar(s, 16, ":");
  let second = twoDigits(s, 17);
  // A leap second (:60) is second 59 plus a whole second of nanoseconds, as chrono keeps it.
  let nanos = second === 60 ? 1e9 : 0;
  if (second === 60) second = 59;
  let i = 19;
  if (s[i] === ".") {
    i++;
    const start = i;
    while (i < s.length && i - start < 9 && s[i] >= "0" && s[i] <= "9") i++;
    if (i === start) throw new ParseFailure(i >= s.length ? TOO_SHORT : INVALID);
    nanos += Number(s.slice(start, i).padEnd(9, "0"));
    while (s[i] >= "0" && s[i] <= "9") i++; // digits past the ninth are ignored
  }
  if (hour > 23 || minute > 59 || second > 59 || (nanos >= 1e9 && second !== 59)) throw new ParseFailure(OUT_OF_RANGE);
  const offset = offsetMinutes(s.slice(i));
  if (i + offset.length !== s.length) throw new ParseFailure(TOO_LONG);
  // FixedOffset::east_opt: the scanner takes any two-digit hour, the offset must stay within a day.
  if (Math.abs(offset.minutes) >= 24 * 60) throw new ParseFailure(OUT_OF_RANGE);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  // chrono's timestamp_millis: the nanoseconds truncated to whole milliseconds.
  return date.getTime() - offset.minutes * 60_000 + Math.floor(nanos / 1e6);
}
