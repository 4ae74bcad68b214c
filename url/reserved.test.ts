import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadAppModel } from "../local/testing";
import { isLinkCode } from "./alias";
import { ROUTE_SEGMENTS, isReserved } from "./reserved";

describe("reserved link names", () => {
  // A default path ("/url.cleanupStaleUrls") has a dot and the web assets' "/ui" two characters: no link
  // code can have either, so neither can shadow one.
  it("include exactly the static first path segments a link code could collide with", () => {
    const endpoints = loadAppModel(fileURLToPath(new URL("..", import.meta.url))).endpoints;
    const firstSegments = new Set(endpoints.map((e) => e.path.split("/")[1]).filter(isLinkCode));
    expect([...firstSegments].sort()).toEqual([...ROUTE_SEGMENTS].sort());
  });

  it.each(["shorten", "urls", "Shorten", "URLS", "__encore", "api", "status"])("reserves %s", (name) => {
    expect(isReserved(name)).toBe(true);
  });

  it.each(["mine", "launch-2025", "shortener", "url"])("leaves %s free", (name) => {
    expect(isReserved(name)).toBe(false);
  });
});
