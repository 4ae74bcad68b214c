// Writes encore.gen/ with the files, paths and exports the Encore CLI writes for this app
// (tsparser/src/builder/codegen.rs and its templates under tsparser/src/builder/templates/), so CI can
// typecheck and collect the tests the way `encore test` does without the CLI. Nothing in local/ reads it.
import fs from "node:fs";
import path from "node:path";
import type { AppModel, EndpointModel } from "../model/app-model";
import { clientClassJs, endpointOptions, ident } from "./generate";

/** The name Encore's SDK gives every Gateway (encore.dev/api/gateway.ts). */
const GATEWAY_NAME = "api-gateway";

/** The directory Encore generates into. */
export function encoreGenDir(root: string): string {
  return path.join(root, "encore.gen");
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

function clientDts(eps: EndpointModel[]): string {
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
      `import { ${ep.name} as ${ep.name}_handler } from ${fromRoot("../../../../", ep.file, true)};`,
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

function clientTestingJs(model: AppModel, service: string, eps: EndpointModel[]): string {
  const svc = model.services.find((s) => s.name === service)!;
  const svcIdent = `${ident(service)}_service`;
  const out = [
    `import { apiCall } from "encore.dev/internal/codegen/api";`,
    `import { registerTestHandler } from "encore.dev/internal/codegen/appinit";`,
    ``,
    `import * as ${svcIdent} from ${fromRoot("../../../../", svc.file, false)};`,
    ``,
  ];
  for (const ep of eps) {
    out.push(
      `export async function ${ep.name}(params, opts) {`,
      `    const handler = (await import(${fromRoot("../../../../", ep.file, false)})).${ep.name};`,
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

function authTs(model: AppModel): string {
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
    `import { ${h.name} as _auth_${h.name} } from ${fromRoot("../../../", h.file, true)};\n\n` +
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

function serviceMain(model: AppModel, service: string, eps: EndpointModel[]): string {
  const up = "../../../../../";
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

function gatewayMain(model: AppModel): string {
  const up = "../../../../../";
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

function combinedMain(model: AppModel, eps: EndpointModel[]): string {
  const up = "../../../../";
  const gwIdent = ident(GATEWAY_NAME);
  return [
    `import { registerGateways, registerHandlers, run, type Handler } from "encore.dev/internal/codegen/appinit";`,
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
    `await run(import.meta.url);`,
    ``,
  ].join("\n");
}

/** Every file Encore's codegen writes for the app, keyed by its path under encore.gen/. */
export function encoreGenFiles(model: AppModel): Map<string, string> {
  const files = new Map<string, string>();
  for (const svc of model.services) {
    const eps = model.endpoints.filter((ep) => ep.service === svc.name && ep.staticAssets === null);
    files.set(`internal/entrypoints/services/${svc.name}/main.ts`, serviceMain(model, svc.name, eps));
    files.set(`internal/clients/${svc.name}/endpoints.d.ts`, clientDts(eps));
    files.set(`internal/clients/${svc.name}/endpoints.js`, clientJs(svc.name, eps));
    files.set(`internal/clients/${svc.name}/endpoints_testing.js`, clientTestingJs(model, svc.name, eps));
  }
  if (model.gateways.length > 0) files.set(`internal/entrypoints/gateways/${GATEWAY_NAME}/main.ts`, gatewayMain(model));
  files.set("auth/index.ts", `export {type AuthData, getAuthData} from "../internal/auth/auth";`);
  files.set("internal/auth/auth.ts", authTs(model));
  files.set(
    "internal/entrypoints/combined/main.ts",
    combinedMain(
      model,
      model.endpoints.filter((ep) => ep.staticAssets === null),
    ),
  );
  files.set("clients/index.js", clientIndex(model, ".js"));
  files.set("clients/index.d.ts", clientIndex(model, ""));
  return files;
}

/** Writes encore.gen/ under the app root as `encore run`/`encore test` would. Returns the directory. */
export function writeEncoreGen(model: AppModel): string {
  const dir = encoreGenDir(model.root);
  for (const [rel, content] of encoreGenFiles(model)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}
