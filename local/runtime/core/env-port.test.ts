import { describe, expect, it } from "vitest";
import { envPort } from "./env-port";

describe("envPort", () => {
  it("gives the default when unset or empty, null for off, and the number asked for", () => {
    expect(envPort("DASH_PORT", 9400, {})).toBe(9400);
    expect(envPort("DASH_PORT", 9400, { DASH_PORT: "" })).toBe(9400);
    expect(envPort("DASH_PORT", 9400, { DASH_PORT: "off" })).toBeNull();
    expect(envPort("DB_PORT", 9500, { DB_PORT: "0" })).toBe(0);
    expect(envPort("DB_PORT", 9500, { DB_PORT: "9600" })).toBe(9600);
  });

  it("refuses what is not a port, naming the variable", () => {
    for (const bad of ["65536", "-1", "1.5", "ninety"]) {
      expect(() => envPort("DB_PORT", 9500, { DB_PORT: bad })).toThrow(`DB_PORT=${bad} is not a port number (0-65535, or "off")`);
    }
  });
});
