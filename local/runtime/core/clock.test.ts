import { afterEach, describe, expect, it, vi } from "vitest";
import { isoNow } from "./clock";

afterEach(() => {
  vi.useRealTimers();
});

describe("isoNow", () => {
  it("gives the current millisecond as toISOString does, and follows the clock", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-25T10:00:00.123Z"));
    expect(isoNow()).toBe("2026-11-25T10:00:00.123Z");
    expect(isoNow()).toBe("2026-11-25T10:00:00.123Z");
    vi.setSystemTime(new Date("2026-11-25T10:00:00.124Z"));
    expect(isoNow()).toBe("2026-11-25T10:00:00.124Z");
    vi.setSystemTime(new Date("2027-01-01T00:00:00.000Z"));
    expect(isoNow()).toBe(new Date().toISOString());
  });
});
