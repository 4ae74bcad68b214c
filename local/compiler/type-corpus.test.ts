// The corpus of type forms (local/__tests__/type-corpus/svc/*.ts): each fixture states Encore's
// verdict on its schema type and the line of Encore's source that decides it, and the analyzer must
// agree: the same error at the marked line, or the same wire schema. Each fixture is analyzed alone,
// in an app of its own, as Encore would build it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeApp } from "./analyze";
import {
  type AppModel,
  AppCompileError,
  type FieldSchema,
  type ObjectSchema,
  type TypeSchema,
  type ValidationExpr,
} from "../model/app-model";

const corpus = fileURLToPath(new URL("../__tests__/type-corpus", import.meta.url));
const nodeModules = fileURLToPath(new URL("../../node_modules", import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "type-corpus-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Fixture {
  name: string;
  text: string;
  verdict: { accepts: string; where: "Request" | "Response" } | { rejects: string; line: number };
  decidedBy: string;
}

function readFixture(name: string): Fixture {
  const text = fs.readFileSync(path.join(corpus, "svc", `${name}.ts`), "utf8");
  const head = (re: RegExp): RegExpExecArray => {
    const m = re.exec(text);
    if (m === null) throw new Error(`${name}.ts lacks ${re}`);
    return m;
  };
  const decidedBy = head(/^\/\/ Decided by: (\S+:\d+)/m)[1];
  const verdict = head(/^\/\/ Encore: (accepts|rejects "(.*)")$/m);
  if (verdict[1] === "accepts") {
    const schema = head(/^\/\/ (Request|Response) schema: (.*)$/m);
    return { name, text, decidedBy, verdict: { accepts: schema[2], where: schema[1] as "Request" | "Response" } };
  }
  const line = text.split("\n").findIndex((l) => l.includes("// HERE")) + 1;
  if (line === 0) throw new Error(`${name}.ts marks no line with // HERE`);
  return { name, text, decidedBy, verdict: { rejects: verdict[2], line } };
}

/** An app holding the service, the shared helper files and this one fixture. */
function appOf(f: Fixture): string {
  const root = path.join(tmp, f.name);
  fs.mkdirSync(path.join(root, "svc"), { recursive: true });
  fs.copyFileSync(path.join(corpus, "encore.app"), path.join(root, "encore.app"));
  fs.copyFileSync(path.join(corpus, "svc", "encore.service.ts"), path.join(root, "svc", "encore.service.ts"));
  fs.cpSync(path.join(corpus, "svc", "lib"), path.join(root, "svc", "lib"), { recursive: true });
  fs.writeFileSync(path.join(root, "svc", `${f.name}.ts`), f.text);
  fs.symlinkSync(nodeModules, path.join(root, "node_modules"), "dir");
  return root;
}

function analyze(f: Fixture): AppModel | AppCompileError {
  try {
    return analyzeApp(appOf(f));
  } catch (err) {
    if (err instanceof AppCompileError) return err;
    throw err;
  }
}

function expr(e: ValidationExpr): string {
  if ("and" in e) return `(${e.and.map(expr).join(" & ")})`;
  if ("or" in e) return `(${e.or.map(expr).join(" | ")})`;
  const names: Record<string, string> = { minLen: "MinLen", maxLen: "MaxLen", minValue: "Min", maxValue: "Max" };
  if ("value" in e) return `${names[e.rule] ?? e.rule}<${typeof e.value === "string" ? JSON.stringify(e.value) : e.value}>`;
  return e.rule === "isEmail" ? "IsEmail" : "IsURL";
}

/** A schema written the way the fixtures state it. */
function render(t: TypeSchema): string {
  switch (t.kind) {
    case "literal":
      return JSON.stringify(t.value);
    case "array":
      return t.elem.kind === "union" ? `(${render(t.elem)})[]` : `${render(t.elem)}[]`;
    case "object":
      return renderObject(t);
    case "map":
      return `Record<string, ${render(t.value)}>`;
    case "union":
      return t.types.length === 0 ? "(empty union)" : t.types.map(render).join(" | ");
    case "validated":
      return `${render(t.base)} & ${expr(t.expr)}`;
    case "date":
      return "Date";
    case "decimal":
      return "Decimal";
    default:
      return t.kind;
  }
}

function renderField(f: FieldSchema): string {
  const where = f.location === "default" ? "" : `@${f.location}(${f.wireName})`;
  return `${f.name}${f.optional ? "?" : ""}${where}: ${render(f.type)}`;
}

function renderObject(o: ObjectSchema): string {
  return `{ ${o.fields.map(renderField).join("; ")} }`;
}

const fixtures = fs
  .readdirSync(path.join(corpus, "svc"))
  .filter((n) => n.endsWith(".ts") && n !== "encore.service.ts")
  .map((n) => readFixture(n.slice(0, -3)));

describe("the type corpus: the analyzer's verdict is Encore's", () => {
  for (const f of fixtures) {
    const v = f.verdict;
    const title =
      "accepts" in v ? `Encore accepts; ${v.where.toLowerCase()} ${v.accepts}` : `Encore rejects at line ${v.line}: ${v.rejects}`;
    it(`${f.name}: ${title} (${f.decidedBy})`, () => {
      const result = analyze(f);
      if ("accepts" in v) {
        if (result instanceof AppCompileError) throw result;
        const ep = result.endpoints.find((e) => e.file === `svc/${f.name}.ts`);
        const schema = v.where === "Request" ? ep?.request : ep?.response;
        expect(schema ? renderObject(schema) : schema).toBe(v.accepts);
      } else {
        expect(result).toBeInstanceOf(AppCompileError);
        const errors = (result as AppCompileError).errors.map((e) => `${e.loc.file}:${e.loc.line}: ${e.message}`);
        expect(errors).toContainEqual(expect.stringContaining(`svc/${f.name}.ts:${v.line}: ${v.rejects}`));
      }
    });
  }
});
