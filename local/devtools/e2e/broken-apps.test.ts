// A broken app must stop both entry points with a message naming the file and the rule, as
// `encore run` and `encore test` stop on the compiler's errors. Every broken fixture goes through
// the test setup; a few go through `npm start` in a child process (each spawn costs a second or two).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AppCompileError } from "../../model/app-model";
import { prepareApp } from "../../vitest-setup";
import { runCli } from "./spawn-app";

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "__tests__", "fixtures");
const broken = fs.readdirSync(fixturesDir).filter((name) => name !== "valid");

describe("npm test on a broken app", () => {
  it.each(broken)("%s fails the setup with file:line and rule", (name) => {
    let error: unknown;
    try {
      prepareApp(path.join(fixturesDir, name));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppCompileError);
    const [first] = (error as AppCompileError).errors;
    expect((error as AppCompileError).message).toContain(
      `${first.loc.file}:${first.loc.line}:${first.loc.column}: ${first.message} [${first.rule}]`,
    );
  });

  it("passes on the valid fixture", () => {
    expect(() => prepareApp(path.join(fixturesDir, "valid"))).not.toThrow();
  });
});

describe("npm run check on a broken app", () => {
  it.each([
    ["invalid-sql", "svc/queries.ts:4:11", 'invalid database query: syntax error at or near "SELEC"'],
    ["unresolved-import", "local/tool.ts:1:1", "unable to resolve module ./missing"],
    [
      "response-typeof-array-index",
      "svc/clicks.ts:4:26",
      "unsupported indexed access type operation: obj Union(Union { types: [] }) index Basic(Number)",
    ],
    ["response-function-field", "svc/job.ts:5:11", "unsupported: TsFnOrConstructorType(TsFnType(..))"],
    ["types-only-import", "svc/pad.ts:2:1", "unable to resolve module left-only: failed to get the node_modules path"],
    ["import-defer", "lib/report.ts:1:14", "Expected ',', got '*'"],
  ])("%s exits 1 naming %s", async (name, where, message) => {
    const { code, output } = await runCli(path.join(fixturesDir, name), "check");
    expect(code).toBe(1);
    expect(output).toContain(`${where}: ${message}`);
  });
});

describe("npm start on a broken app", () => {
  it.each([
    ["service-outside-service-file", "svc/other.ts:3", "service declarations are only allowed in encore.service.ts"],
    ["path-param-missing", "svc/get.ts:3", "path parameter not found in request schema"],
    ["auth-without-gateway", "", "Gateway"],
  ])("%s exits 1 naming %s", async (name, where, rule) => {
    const { code, output } = await runCli(path.join(fixturesDir, name), "start");
    expect(code).toBe(1);
    expect(output).toContain(where);
    expect(output).toContain(rule);
    expect(output).not.toContain("API listening");
  });
});
