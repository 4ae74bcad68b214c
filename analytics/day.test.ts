import { describe, expect, it } from "vitest";
import { utcDay } from "./day";

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
