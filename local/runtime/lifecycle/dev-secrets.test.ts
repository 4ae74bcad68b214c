import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testScratchDir } from "../core/context";
import { devSecretNames, ensureDevSecrets, readDevSecrets } from "./dev-secrets";

const dir = fs.mkdtempSync(path.join(testScratchDir(), "dev-secrets-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("development secrets for npm start", () => {
  it("reads the names after each --dev-secret", () => {
    expect(devSecretNames(["start", "--dev-secret", "JWTSecret", "--dev-secret", "Other", "--dev-secret"])).toEqual(["JWTSecret", "Other"]);
    expect(devSecretNames(["start"])).toEqual([]);
  });

  it("generates a value once, keeps it across starts, and only its owner can read the file", () => {
    const file = path.join(dir, "nested", "dev-secrets.cue");
    expect(ensureDevSecrets(["JWTSecret"], file)).toEqual(["JWTSecret"]);
    const first = readDevSecrets(file).get("JWTSecret");
    expect(Buffer.from(first ?? "", "base64")).toHaveLength(48);
    expect(ensureDevSecrets(["JWTSecret"], file)).toEqual([]);
    expect(readDevSecrets(file).get("JWTSecret")).toBe(first);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });

  it("adds a newly listed name without changing the others", () => {
    const file = path.join(dir, "two.cue");
    ensureDevSecrets(["A"], file);
    const a = readDevSecrets(file).get("A");
    expect(ensureDevSecrets(["A", "B"], file)).toEqual(["B"]);
    expect(readDevSecrets(file).get("A")).toBe(a);
    expect(readDevSecrets(file).get("B")).not.toBe(a);
  });

  it("reads nothing from a file that does not exist", () => {
    expect(readDevSecrets(path.join(dir, "missing.cue"))).toEqual(new Map());
  });
});
