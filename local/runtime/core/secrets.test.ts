import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import fs from "node:fs";
import path from "node:path";

// The app root is a scratch directory holding the .secrets.local.cue under test.
const { appRoot } = await vi.hoisted(async () => {
  const [nodeFs, nodeOs, nodePath] = await Promise.all([import("node:fs"), import("node:os"), import("node:path")]);
  return { appRoot: nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), "secrets-test-")) };
});
vi.mock("./context", () => ({ appRoot, testMode: true }));
afterAll(() => fs.rmSync(appRoot, { recursive: true, force: true }));

import { findSecret, lookupSecret, parseLocalSecrets, readLocalSecrets, Secret } from "./secrets";

fs.writeFileSync(
  path.join(appRoot, ".secrets.local.cue"),
  ["// Local secrets, never committed.", 'JWTSecret: "from-cue-file"', 'OnlyInFile: "file value" // trailing comment', ""].join("\n"),
);

const parse = (text: string) => Object.fromEntries(parseLocalSecrets(text, ".secrets.local.cue"));

describe("parsing .secrets.local.cue", () => {
  it('reads Name: "value" fields with comments, blank lines and commas', () => {
    const text = [
      "// header comment",
      "",
      'JWTSecret: "s3cret"   // why: signs tokens',
      '  ApiKey:"k-1", Other: "two"',
      '"Quoted_Name": "q"',
      "",
    ].join("\n");
    expect(parse(text)).toEqual({ JWTSecret: "s3cret", ApiKey: "k-1", Other: "two", Quoted_Name: "q" });
  });

  it("resolves CUE/JSON string escapes", () => {
    const text = String.raw`Esc: "quote \" backslash \\ slash \/ tab\tnl\n uni \u00e9 astral \U0001F600 bell\a"`;
    expect(parse(text).Esc).toBe('quote " backslash \\ slash / tab\tnl\n uni é astral 😀 bell\x07');
    expect(parse('Url: "https://example.com/a//b"').Url).toBe("https://example.com/a//b");
  });

  it('reads multi-line """ strings, removing the closing line\'s indentation', () => {
    const text = ['Key: """', "    -----BEGIN KEY-----", "      indented", "", "    -----END KEY-----", '    """', 'Next: "n"'].join("\n");
    expect(parse(text)).toEqual({ Key: "-----BEGIN KEY-----\n  indented\n\n-----END KEY-----", Next: "n" });
  });

  it("leaves hidden fields out, as CUE does", () => {
    expect(parse('_draft: "x"\nReal: "y"')).toEqual({ Real: "y" });
  });

  it("names file, line and column of a syntax error", () => {
    expect(() => parse('A: "ok"\nB: 42')).toThrow("parse local secrets: .secrets.local.cue:2:4: secret key B is not a string");
    expect(() => parse('A: "unterminated')).toThrow(".secrets.local.cue:1:4: unterminated string");
    expect(() => parse('A "x"')).toThrow('.secrets.local.cue:1:2: expected ":" after A');
    expect(() => parse('A: "bad \\q escape"')).toThrow("unknown escape sequence \\q");
    expect(() => parse('A: "short \\u00e"')).toThrow("1:11: unknown escape sequence \\u");
    expect(() => parse('A: "surrogate \\ud800"')).toThrow("invalid code point in escape \\ud800");
    expect(() => parse('A: "\\(x)"')).toThrow("string interpolation is not supported");
    expect(() => parse('A: "1"\nA: "2"')).toThrow("2:1: conflicting values for secret key A");
    expect(() => parse('A: "1" B: "2"')).toThrow('expected a newline or "," after the value of A');
    expect(() => parse('K: """\n  x\n y"""')).toThrow('closing """ must be on a line of its own');
  });

  it("accepts an empty file", () => {
    expect(parse("// nothing yet\n")).toEqual({});
  });
});

describe("looking up a secret", () => {
  const file = path.join(appRoot, ".secrets.local.cue");

  afterEach(() => {
    delete process.env.JWTSecret;
  });

  it("prefers an environment variable of exactly that name, then the cue file", () => {
    expect(findSecret("JWTSecret", { JWTSecret: "from-env" }, [file])?.cached()).toBe("from-env");
    expect(findSecret("JWTSecret", { JWTSECRET: "wrong case" }, [file])?.cached()).toBe("from-cue-file");
    expect(findSecret("JWTSecret", { JWTSecret: "" }, [file])?.cached()).toBe("");
  });

  it("falls back to the next file only for a secret the first does not set", () => {
    const generated = path.join(appRoot, "generated.cue");
    fs.writeFileSync(generated, 'JWTSecret: "generated"\nOnlyGenerated: "g"\n');
    expect(findSecret("JWTSecret", {}, [file, generated])?.cached()).toBe("from-cue-file");
    expect(findSecret("OnlyGenerated", {}, [file, generated])?.cached()).toBe("g");
  });

  it("is null when neither sets it, and when there is no cue file", () => {
    expect(findSecret("Unset", {}, [file])).toBeNull();
    expect(findSecret("JWTSecret", {}, [path.join(appRoot, "missing.cue")])).toBeNull();
  });

  it("reads the file once per process", () => {
    const cached = path.join(appRoot, "cached.cue");
    fs.writeFileSync(cached, 'A: "1"');
    expect(readLocalSecrets(cached).get("A")).toBe("1");
    fs.writeFileSync(cached, 'A: "2"');
    expect(readLocalSecrets(cached).get("A")).toBe("1");
  });

  it("lookupSecret reads process.env and .secrets.local.cue at the app root", () => {
    const fromFile = lookupSecret("OnlyInFile");
    expect(fromFile).toBeInstanceOf(Secret);
    expect(fromFile?.cached()).toBe("file value");
    process.env.JWTSecret = "env wins";
    expect(lookupSecret("JWTSecret")?.cached()).toBe("env wins");
    expect(lookupSecret("NotSetAnywhere")).toBeNull();
  });
});
