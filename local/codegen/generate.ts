// The one code generator: from the app model, the files the Encore CLI writes to encore.gen/
// (tsparser/src/builder/codegen.rs and its templates under tsparser/src/builder/templates/). `tsx
// local/cli.ts encore-gen` writes them all to encore.gen/ as the CLI does, so CI can typecheck and
// collect the tests the way `encore test` does; npm start and the tests write the ones the runtime
// loads (clients, auth, the combined entrypoint) to .local/gen/, so the app runs on the same text.
import fs from "node:fs";
import path from "node:path";
import type { AppModel, EndpointModel } from "../model/app-model";
import { genDirOf } from "../model/layout.mjs";

/** A JS identifier for a service name, as Encore derives it (dashes become underscores). */
function ident(name: string): string {
  return name.replace(/-/g, "_");
}

/** The endpointOptions Encore's entrypoints pass for an endpoint. */
function endpointOptions(ep: EndpointModel): string {
  return JSON.stringify({ expose: ep.expose, auth: ep.auth, isRaw: ep.raw, isStream: false, tags: ep.tags });
}

/** The runtime Client class of a service's generated client module, as Encore's catalog writes it. */
function clientClassJs(eps: EndpointModel[]): string[] {
  return [`export class Client {`, `  constructor() {`, ...eps.map((ep) => `    this.${ep.name} = ${ep.name};`), `  }`, `}`];
}

/** The name Encore's SDK gives every Gateway (encore.dev/api/gateway.ts). */
const GATEWAY_NAME = "api-gateway";

/** The directory Encore generates into. */
export function encoreGenDir(root: string): string {
  return path.join(root, "encore.gen");
}

/**
 * The way back from a folder under the generated directory to the app root: codegen.rs writes
 * `../` for each folder, encore.gen/ itself counted (`genDepth` 1; .local/gen/ is 2).
 */
function upFrom(genDepth: number, folder: string): string {
  return "../".repeat(genDepth + folder.split("/").length);
}

/** `up` is the way back from the generated file to the app root; codegen.rs joins it with the app path. */
function fromRoot(up: string, appFile: string, keepExt: boolean): string {
  return JSON.stringify(up + (keepExt ? appFile.replace(/\.ts$/, ".js") : appFile.replace(/\.ts$/, "")));
}

/** codegen.rs: an endpoint's client takes `params` only when its request encoding has parameters. */
function hasParams(ep: EndpointModel): boolean {
  return ep.request !== null && ep.request.fields.length > 0;
}

function clientIndex(model: AppModel, ext: string): string {
  return model.services.map((s) => `export * as ${ident(s.name)} from "../internal/clients/${s.name}/endpoints${ext}";\n`).join("");
}

function clientDts(eps: EndpointModel[], up: string): string {
  const out = [
    `import { CallOpts } from "encore.dev/api";`,
    ``,
    `type Parameters<T> = T extends (...args: infer P) => unknown ? P : never;`,
    `type WithCallOpts<T extends (...args: any) => any> = (`,
    `  ...args: [...Parameters<T>, opts?: CallOpts]`,
    `) => ReturnType<T>;`,
    ``,
  ];
  for (const ep of eps) {
    out.push(
      `import { ${ep.name} as ${ep.name}_handler } from ${fromRoot(up, ep.file, true)};`,
      `type ${ep.name}_Type = WithCallOpts<typeof ${ep.name}_handler>;`,
      `declare const ${ep.name}: ${ep.name}_Type;`,
      `export { ${ep.name} };`,
      ``,
    );
  }
  out.push(`export class Client {`, `  private constructor();`, ``, ...eps.map((ep) => `  readonly ${ep.name}: ${ep.name}_Type;`), `}`, ``);
  out.push(`export declare function ref(): Client;`, ``);
  return out.join("\n");
}

function clientJs(service: string, eps: EndpointModel[]): string {
  const out = [
    `import { apiCall } from "encore.dev/internal/codegen/api";`,
    ``,
    `const TEST_ENDPOINTS = typeof ENCORE_DROP_TESTS === "undefined" && process.env.NODE_ENV === "test"`,
    `    ? await import("./endpoints_testing.js")`,
    `    : null;`,
    ``,
  ];
  for (const ep of eps) {
    out.push(
      hasParams(ep)
        ? `export async function ${ep.name}(params, opts) {`
        : `export async function ${ep.name}(opts) {\n    const params = undefined;`,
      `    if (typeof ENCORE_DROP_TESTS === "undefined" && process.env.NODE_ENV === "test") {`,
      `        return TEST_ENDPOINTS.${ep.name}(params, opts);`,
      `    }`,
      `    return apiCall(${JSON.stringify(service)}, ${JSON.stringify(ep.name)}, params, opts);`,
      `}`,
    );
  }
  out.push(
    ``,
    ...clientClassJs(eps),
    ``,
    `let _client_instance;`,
    ``,
    `export function ref() {`,
    `  if (!_client_instance) {`,
    `    _client_instance = new Client();`,
    `  }`,
    `  return _client_instance;`,
    `}`,
    ``,
  );
  return out.join("\n");
}

function clientTestingJs(model: AppModel, service: string, eps: EndpointModel[], up: string): string {
  const svc = model.services.find((s) => s.name === service)!;
  const svcIdent = `${ident(service)}_service`;
  const out = [
    `import { apiCall } from "encore.dev/internal/codegen/api";`,
    `import { registerTestHandler } from "encore.dev/internal/codegen/appinit";`,
    ``,
    `import * as ${svcIdent} from ${fromRoot(up, svc.file, false)};`,
    ``,
  ];
  for (const ep of eps) {
    out.push(
      `export async function ${ep.name}(params, opts) {`,
      `    const handler = (await import(${fromRoot(up, ep.file, false)})).${ep.name};`,
      `    registerTestHandler({`,
      `        apiRoute: { service: ${JSON.stringify(service)}, name: ${JSON.stringify(ep.name)}, raw: ${ep.raw}, handler, streamingRequest: false, streamingResponse: false },`,
      `        middlewares: ${svcIdent}.default.cfg.middlewares || [],`,
      `        endpointOptions: ${endpointOptions(ep)},`,
      `    });`,
      `    return apiCall(${JSON.stringify(service)}, ${JSON.stringify(ep.name)}, params, opts);`,
      `}`,
      ``,
    );
  }
  return out.join("\n");
}

function authTs(model: AppModel, up: string): string {
  const h = model.authHandler;
  const callOpts = `declare module "encore.dev/api" {\n  interface CallOpts {\n    authData?: AuthData;\n  }\n}\n`;
  if (!h) {
    return (
      `export type AuthData = null;\n\n` +
      `// getAuthData throws an error until an auth handler is added\n` +
      `export function getAuthData(): AuthData | null {\n    throw new Error("authData cannot be called when there are no auth handlers.")\n}\n` +
      callOpts
    );
  }
  return (
    `import { getAuthData as _getAuthData } from "encore.dev/internal/codegen/auth";\n` +
    `import { ${h.name} as _auth_${h.name} } from ${fromRoot(up, h.file, true)};\n\n` +
    `export type AuthData = Awaited<ReturnType<typeof _auth_${h.name}>>;\n\n` +
    `export function getAuthData(): AuthData | null {\n    return _getAuthData()\n}\n\n` +
    callOpts
  );
}

/** One handler registration as the entrypoint templates write it. */
function handlerEntry(ep: EndpointModel, handler: string, middlewares: string): string {
  return [
    `    {`,
    `        apiRoute: {`,
    `            service:           ${JSON.stringify(ep.service)},`,
    `            name:              ${JSON.stringify(ep.name)},`,
    `            handler:           ${handler},`,
    `            raw:               ${ep.raw},`,
    `            streamingRequest:  false,`,
    `            streamingResponse: false,`,
    `        },`,
    `        endpointOptions: ${endpointOptions(ep)},`,
    `        middlewares: ${middlewares}.default.cfg.middlewares || [],`,
    `    },`,
  ].join("\n");
}

const WORKER_IMPORTS = [
  `import { Worker, isMainThread } from "node:worker_threads";`,
  `import { fileURLToPath } from "node:url";`,
  `import { availableParallelism } from "node:os";`,
];

function serviceMain(model: AppModel, service: string, eps: EndpointModel[], up: string): string {
  const svc = model.services.find((s) => s.name === service)!;
  const svcIdent = `${ident(service)}_service`;
  const subscriptionFiles = model.subscriptions.filter((s) => s.service === service).map((s) => s.file);
  return [
    `import { registerHandlers, run, type Handler } from "encore.dev/internal/codegen/appinit";`,
    ...WORKER_IMPORTS,
    ``,
    ...eps.map((ep, i) => `import { ${ep.name} as ${ep.name}Impl${i} } from ${fromRoot(up, ep.file, false)};`),
    ...subscriptionFiles.map((f) => `import ${fromRoot(up, f, false)};`),
    `import * as ${svcIdent} from ${fromRoot(up, svc.file, false)};`,
    ``,
    `const handlers: Handler[] = [`,
    ...eps.map((ep, i) => handlerEntry(ep, `${ep.name}Impl${i}`, svcIdent)),
    `];`,
    ``,
    `registerHandlers(handlers);`,
    ``,
    `await run(import.meta.url);`,
    ``,
  ].join("\n");
}

function gatewayMain(model: AppModel, up: string): string {
  const gwIdent = ident(GATEWAY_NAME);
  return [
    `import { registerGateways, run } from "encore.dev/internal/codegen/appinit";`,
    ...WORKER_IMPORTS,
    ``,
    ...model.gateways.map((g) => `import { ${g.name} as ${gwIdent}Impl } from ${fromRoot(up, g.file, false)};`),
    ``,
    `const gateways = [`,
    ...model.gateways.map(() => `    ${gwIdent}Impl,`),
    `];`,
    ``,
    `registerGateways(gateways);`,
    ``,
    `await run(import.meta.url);`,
    ``,
  ].join("\n");
}

/**
 * The combined entrypoint; without `run`, its registrations alone: what a test process imports
 * before it serves the app over HTTP itself (Encore's own tests register each endpoint on first call).
 */
function combinedMain(model: AppModel, eps: EndpointModel[], up: string, run: boolean): string {
  const gwIdent = ident(GATEWAY_NAME);
  return [
    `import { registerGateways, registerHandlers, ${run ? "run, " : ""}type Handler } from "encore.dev/internal/codegen/appinit";`,
    ``,
    ...model.gateways.map((g) => `import { ${g.name} as ${gwIdent}GW } from ${fromRoot(up, g.file, false)};`),
    ...eps.map((ep, i) => `import { ${ep.name} as ${ident(ep.service)}_${ep.name}Impl${i} } from ${fromRoot(up, ep.file, false)};`),
    ...model.subscriptions.map((s) => `import ${fromRoot(up, s.file, false)};`),
    ...model.services.map((s) => `import * as ${ident(s.name)}_service from ${fromRoot(up, s.file, false)};`),
    ``,
    ``,
    `const gateways: any[] = [`,
    ...model.gateways.map(() => `    ${gwIdent}GW,`),
    `];`,
    ``,
    `const handlers: Handler[] = [`,
    ...eps.map((ep, i) => handlerEntry(ep, `${ident(ep.service)}_${ep.name}Impl${i}`, `${ident(ep.service)}_service`)),
    `];`,
    ``,
    `registerGateways(gateways);`,
    `registerHandlers(handlers);`,
    ``,
    ...(run ? [`await run(import.meta.url);`, ``] : []),
  ].join("\n");
}

/** Every file Encore's codegen writes for the app, keyed by its path under a directory `genDepth` folders below the app root. */
export function encoreGenFiles(model: AppModel, genDepth = 1): Map<string, string> {
  const files = new Map<string, string>();
  const put = (file: string, content: (up: string) => string) => files.set(file, content(upFrom(genDepth, path.posix.dirname(file))));
  const handled = model.endpoints.filter((ep) => ep.staticAssets === null);
  for (const svc of model.services) {
    const eps = handled.filter((ep) => ep.service === svc.name);
    put(`internal/entrypoints/services/${svc.name}/main.ts`, (up) => serviceMain(model, svc.name, eps, up));
    put(`internal/clients/${svc.name}/endpoints.d.ts`, (up) => clientDts(eps, up));
    put(`internal/clients/${svc.name}/endpoints.js`, () => clientJs(svc.name, eps));
    put(`internal/clients/${svc.name}/endpoints_testing.js`, (up) => clientTestingJs(model, svc.name, eps, up));
  }
  if (model.gateways.length > 0) put(`internal/entrypoints/gateways/${GATEWAY_NAME}/main.ts`, (up) => gatewayMain(model, up));
  put("auth/index.ts", () => `export {type AuthData, getAuthData} from "../internal/auth/auth";`);
  put("internal/auth/auth.ts", (up) => authTs(model, up));
  put(COMBINED_MAIN, (up) => combinedMain(model, handled, up, true));
  put(TEST_REGISTRATIONS, (up) => combinedMain(model, handled, up, false));
  put("clients/index.js", () => clientIndex(model, ".js"));
  put("clients/index.d.ts", () => clientIndex(model, ""));
  return files;
}

/** The entrypoint npm start runs: Encore's combined one (gateway and every service in one process). */
export const COMBINED_MAIN = "internal/entrypoints/combined/main.ts";

/** The combined entrypoint's registrations without its `run`, for test processes (local/testing.ts); not Encore's. */
export const TEST_REGISTRATIONS = "internal/entrypoints/combined/register.ts";

/** What the local runtime loads: `~encore/clients`, `~encore/auth` and the combined entrypoint. */
const LOADED_LOCALLY = /^(clients|auth|internal\/clients|internal\/auth|internal\/entrypoints\/combined)\//;

/** Unchanged files are left alone, so concurrent generators (test workers, npm start) never race. */
function writeIfChanged(file: string, content: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === content) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** Writes `files` under `dir` and removes whatever else is there. Returns the directory. */
function writeDir(dir: string, files: Map<string, string>): string {
  const keep = new Set([...files.keys()].map((rel) => path.join(dir, rel)));
  if (fs.existsSync(dir)) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && !keep.has(file) && !file.endsWith(".tmp")) fs.rmSync(file, { force: true });
    }
  }
  for (const [rel, content] of files) writeIfChanged(path.join(dir, rel), content);
  return dir;
}

/** Writes encore.gen/ under the app root as `encore run`/`encore test` would. Returns the directory. */
export function writeEncoreGen(model: AppModel): string {
  const files = encoreGenFiles(model);
  files.delete(TEST_REGISTRATIONS);
  return writeDir(encoreGenDir(model.root), files);
}

/** Writes .local/gen/ for the local runtime from the same files, replacing what was there. Returns the directory. */
export function generate(model: AppModel): string {
  const dir = genDirOf(model.root);
  const genDepth = path.relative(model.root, dir).split(path.sep).length;
  return writeDir(dir, new Map([...encoreGenFiles(model, genDepth)].filter(([rel]) => LOADED_LOCALLY.test(rel))));
}
