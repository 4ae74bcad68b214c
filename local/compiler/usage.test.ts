// What the dashboard's catalog and flow read from the app model: doc comments, publishers, callers, bucket users.
import { describe, expect, it } from "vitest";
import { loadAppModel } from "./cache";
import { appRoot as appRootDir } from "../model/layout.mjs";

describe("usage in the app model", () => {
  const model = loadAppModel(appRootDir);

  it("records who publishes to each topic, who uses each bucket, and service-to-service calls", () => {
    expect(model.topics.find((t) => t.name === "url-shortened")?.publishers).toEqual(["url"]);
    expect(model.buckets.find((b) => b.name === "qr-codes")?.usedBy).toEqual(["url"]);
    expect(model.serviceCalls).toContainEqual({ from: "analytics", to: "url", endpoint: "totals" });
  });

  it("keeps the doc comment right above each endpoint, not the file's header", () => {
    const shorten = model.endpoints.find((e) => e.name === "shorten")!;
    expect(shorten.doc).toMatch(/^shorten stores `url` under a fresh code, or under the alias the caller chose/);
    expect(model.endpoints.every((e) => e.doc === null || !e.doc.includes("\n\n\n"))).toBe(true);
  });
});
