import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isUtcDay, utcDay } from "./utc-day";

describe("utcDay", () => {
  it("splits days at UTC midnight", () => {
    expect(utcDay(new Date("2026-03-07T23:59:59.999Z"))).toBe("2026-03-07");
    expect(utcDay(new Date("2026-03-08T00:00:00.000Z"))).toBe("2026-03-08");
  });

  it("uses the UTC day, not the offset the instant was written in", () => {
    expect(utcDay(new Date("2026-03-07T23:30:00-05:00"))).toBe("2026-03-08");
    expect(utcDay(new Date("2026-03-08T00:30:00+02:00"))).toBe("2026-03-07");
  });

  it("rejects what is not a valid Date, so a bad event fails loudly", () => {
    expect(() => utcDay(new Date("not a date"))).toThrow(/expected a valid Date/);
    expect(() => utcDay("2026-03-07T00:00:00Z" as unknown as Date)).toThrow(/expected a valid Date/);
  });
});

describe("isUtcDay", () => {
  it.each(["2026-03-07", "2028-02-29", "1999-12-31"])("accepts %s", (day) => {
    expect(isUtcDay(day)).toBe(true);
  });

  it.each(["2027-02-29", "2026-13-01", "2026-04-31", "2026-3-7", "2026-03-07T00:00:00Z", "", "yesterday"])("refuses %j", (day) => {
    expect(isUtcDay(day)).toBe(false);
  });
});

describe("addDays and daysBetween", () => {
  it("step across month and year ends and leap days", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(daysBetween("2026-01-01", "2027-01-01")).toBe(365);
    expect(daysBetween("2026-03-08", "2026-03-07")).toBe(-1);
  });
});
