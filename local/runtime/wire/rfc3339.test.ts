import { describe, expect, it } from "vitest";
import { parseRfc3339 } from "./rfc3339";

// chrono 0.4.45's DateTime::parse_from_rfc3339 (src/format/parse.rs), which Encore decodes requests with.
describe("parseRfc3339", () => {
  it.each([
    ["2027-03-02T00:00:00Z", "2027-03-02T00:00:00.000Z"],
    ["2028-02-29T12:30:45.123456789+02:00", "2028-02-29T10:30:45.123Z"],
    ["2027-01-01t00:00:00z", "2027-01-01T00:00:00.000Z"],
    ["2027-01-01 00:00:00-00:30", "2027-01-01T00:30:00.000Z"],
    ["2027-01-01T00:00:00.1234567891234Z", "2027-01-01T00:00:00.123Z"],
    // A leap second, at the end of any minute, is second 59 plus a whole second, as chrono keeps it.
    ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
    ["2027-01-01T00:00:60Z", "2027-01-01T00:01:00.000Z"],
    ["0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"],
  ])("reads %s", (text, iso) => {
    const parsed = parseRfc3339(text);
    expect("ms" in parsed && new Date(parsed.ms).toISOString()).toBe(iso);
  });

  it.each([
    // Days and times that do not exist are refused, never rolled over.
    ["2027-02-30T00:00:00Z", "input is out of range"],
    ["2027-02-29T00:00:00Z", "input is out of range"],
    ["2027-13-01T00:00:00Z", "input is out of range"],
    ["2027-04-31T00:00:00Z", "input is out of range"],
    ["2027-01-01T24:00:00Z", "input is out of range"],
    ["2027-01-01T00:60:00Z", "input is out of range"],
    ["2027-01-01T00:00:00+24:00", "input is out of range"],
    ["2027-01-01T00:00:00+01:60", "input is out of range"],
    ["2027-01-01", "premature end of input"],
    ["2027-01-01T00:00:00", "premature end of input"],
    ["2027-01-01T00:00:00.Z", "input contains invalid characters"],
    ["2027-01-01X00:00:00Z", "input contains invalid characters"],
    ["2027-01-01T00:00:00+0100", "input contains invalid characters"],
    ["2027-01-01T00:00:00ZZ", "trailing input"],
    ["yesterday at noon UTC", "input contains invalid characters"],
  ])("refuses %s: %s", (text, error) => {
    expect(parseRfc3339(text)).toEqual({ error });
  });
});
