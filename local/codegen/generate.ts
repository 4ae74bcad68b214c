// Writes what the Encore CLI writes to encore.gen/ (typed service clients, getAuthData) plus the
// app entrypoint, into .local/gen/, from the app model. Runtime code is .js, types are .d.ts, as in
// Encore's own catalog, so nothing here depends on the SDK's internal type declarations.
import fs from "node:fs";
import path from "node:path";
import type { AppModel, EndpointModel } from "../model/app-model";
import { genDirOf } from "../model/layout.mjs";

/** A JS identifier for a service name, as Encore derives it (dashes become underscores). */
export function ident(name: string): string {
  return name.replace(/-/g, "_");
}

/** An import specifier from a generated file to an app source file, without extension. */
function importPath(fromFile: string, root: string, appFile: string): string {
  const rel = path.relative(path.dirname(fromFile), path.join(root, appFile)).split(path.sep).join("/");
  const noExt = rel.replace(/\.ts$/, "");
  return JSON.stringify(noExt.startsWith(".") ? noExt : "./" + noExt);
}

/** Endpoints with a handler: Encore's codegen skips `api.static` ones, which the runtime serves itself. */
function handlerEndpoints(model: AppModel, service?: string): EndpointModel[] {
  return model.endpoints.filter((e) => e.staticAssets === null && (service === undefined || e.service === service));
}

/** The endpointOptions Encore's entrypoints pass for an endpoint. */
export function endpointOptions(ep: EndpointModel): string {
  return JSON.stringify({ expose: ep.expose, auth: ep.auth, isRaw: ep.raw, isStream: false, tags: ep.tags });
}

/** The runtime Client class of a service's generated client module, as Encore's catalog writes it. */
export function clientClassJs(eps: EndpointModel[]): string[] {
  return [`export class Client {`, `  constructor() {`, ...eps.map((ep) => `    this.${ep.name} = ${ep.name};`), `  }`, `}`];
}

function clientJs(model: AppModel, service: string, file: string): string {
  const svc = model.services.find((s) => s.name === service)!;
  const eps = handlerEndpoints(model, service);
  const lines = [
    `import { apiCall } from "encore.dev/internal/codegen/api";`,
    `import { registerTestHandler } from "encore.dev/internal/codegen/appinit";`,
    ``,
    `const TEST = process.env.NODE_ENV === "test";`,
    ``,
    `/** In tests each client registers its endpoint on first use, as Encore's test clients do. */`,
    `async function register(name, raw, load, endpointOptions) {`,
    `  const [mod, svc] = await Promise.all([load(), import(${importPath(file, model.root, svc.file)})]);`,
    `  registerTestHandler({`,
    `    apiRoute: { service: ${JSON.stringify(service)}, name, raw, handler: mod[name], streamingRequest: false, streamingResponse: false },`,
    `    middlewares: svc.default.cfg.middlewares || [],`,
    `    endpointOptions,`,
    `  });`,
    `}`,
    ``,
  ];
  for (const ep of eps) {
    const signature = ep.request === null ? `opts` : `params, opts`;
    lines.push(
      `export async function ${ep.name}(${signature}) {`,
      ep.request === null ? `  const params = undefined;` : ``,
      `  if (TEST) await register(${JSON.stringify(ep.name)}, ${ep.raw}, () => import(${importPath(file, model.root, ep.file)}), ${endpointOptions(ep)});`,
      `  return apiCall(${JSON.stringify(service)}, ${JSON.stringify(ep.name)}, params, opts);`,
      `}`,
      ``,
    );
  }
  lines.push(...clientClassJs(eps), ``, `let instance;`, `export function ref() {`, `  return (instance ??= new Client());`, `}`);
  return lines.filter((l, i, all) => !(l === "" && all[i - 1] === "")).join("\n") + "\n";
}

function clientDts(model: AppModel, service: string, file: string): string {
  const eps = handlerEndpoints(model, service);
  return [
    `import type { CallOpts } from "encore.dev/api";`,
    ...eps.map((ep) => `import type { ${ep.name} as ${ep.name}_handler } from ${importPath(file, model.root, ep.file)};`),
    ``,
    `type Parameters<T> = T extends (...args: infer P) => unknown ? P : never;`,
    `type WithCallOpts<T extends (...args: any) => any> = (...args: [...Parameters<T>, opts?: CallOpts]) => ReturnType<T>;`,
    ``,
    ...eps.map((ep) => `export declare const ${ep.name}: WithCallOpts<typeof ${ep.name}_handler>;`),
    ``,
    `export declare class Client {`,
    `  private constructor();`,
    ...eps.map((ep) => `  readonly ${ep.name}: WithCallOpts<typeof ${ep.name}_handler>;`),
    `}`,
    ``,
    `export declare function ref(): Client;`,
    ``,
  ].join("\n");
}

function authFiles(model: AppModel, file: string): { js: string; dts: string } {
  const h = model.authHandler;
  if (!h) {
    return {
      js: `export function getAuthData() {\n  throw new Error("authData cannot be called when there are no auth handlers.");\n}\n`,
      dts: `export type AuthData = null;\nexport declare function getAuthData(): AuthData | null;\n`,
    };
  }
  return {
    js: `import { getAuthData as sdkGetAuthData } from "encore.dev/internal/codegen/auth";\n\nexport function getAuthData() {\n  return sdkGetAuthData();\n}\n`,
    dts: [
      `import type { ${h.name} as _auth_handler } from ${importPath(file, model.root, h.file)};`,
      ``,
      `export type AuthData = Awaited<ReturnType<typeof _auth_handler>>;`,
      ``,
      `export declare function getAuthData(): AuthData | null;`,
      ``,
      `declare module "encore.dev/api" {`,
      `  interface CallOpts {`,
      `    authData?: AuthData;`,
      `  }`,
      `}`,
      ``,
    ].join("\n"),
  };
}

/** Imports every gateway, endpoint, subscription and service, then registers them with the runtime. */
function registerJs(model: AppModel, file: string): string {
  const imp = (f: string) => importPath(file, model.root, f);
  const lines = [`import { registerGateways, registerHandlers } from "encore.dev/internal/codegen/appinit";`];
  model.gateways.forEach((g, i) => lines.push(`import { ${g.name} as gateway${i} } from ${imp(g.file)};`));
  const endpoints = handlerEndpoints(model);
  endpoints.forEach((e, i) => lines.push(`import { ${e.name} as endpoint${i} } from ${imp(e.file)};`));
  for (const f of new Set(model.subscriptions.map((s) => s.file))) lines.push(`import ${imp(f)};`);
  model.services.forEach((s, i) => lines.push(`import service${i} from ${imp(s.file)};`));
  const serviceIndex = new Map(model.services.map((s, i) => [s.name, i]));
  lines.push(
    ``,
    `registerGateways([${model.gateways.map((_, i) => `gateway${i}`).join(", ")}]);`,
    `registerHandlers([`,
    ...endpoints.map(
      (e, i) =>
        `  { apiRoute: { service: ${JSON.stringify(e.service)}, name: ${JSON.stringify(e.name)}, handler: endpoint${i}, raw: ${e.raw}, streamingRequest: false, streamingResponse: false }, endpointOptions: ${endpointOptions(e)}, middlewares: service${serviceIndex.get(e.service)}.cfg.middlewares || [] },`,
    ),
    `]);`,
    ``,
  );
  return lines.join("\n");
}

const MAIN_JS = `import "./register.js";
import { run } from "encore.dev/internal/codegen/appinit";

await run(import.meta.url);
`;

/** Unchanged files are left alone, so concurrent generators (test workers, npm start) never race. */
function writeIfChanged(file: string, content: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === content) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

function removeStale(dir: string, keep: Set<string>): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !keep.has(file) && !file.endsWith(".tmp")) fs.rmSync(file, { force: true });
  }
}

/** Writes .local/gen from the model, replacing what was there. Returns the directory. */
export function generate(model: AppModel): string {
  const dir = genDirOf(model.root);
  const files = new Map<string, string>();
  const put = (rel: string, content: string) => files.set(path.join(dir, rel), content);

  put(
    "clients/index.js",
    model.services.map((s) => `export * as ${ident(s.name)} from "../internal/clients/${s.name}/endpoints.js";`).join("\n") + "\n",
  );
  put(
    "clients/index.d.ts",
    model.services.map((s) => `export * as ${ident(s.name)} from "../internal/clients/${s.name}/endpoints";`).join("\n") + "\n",
  );
  for (const s of model.services) {
    const js = path.join(dir, `internal/clients/${s.name}/endpoints.js`);
    files.set(js, clientJs(model, s.name, js));
    files.set(js.replace(/\.js$/, ".d.ts"), clientDts(model, s.name, js));
  }
  const authJs = path.join(dir, "internal/auth/auth.js");
  const auth = authFiles(model, authJs);
  files.set(authJs, auth.js);
  files.set(authJs.replace(/\.js$/, ".d.ts"), auth.dts);
  put("auth/index.js", `export { getAuthData } from "../internal/auth/auth.js";\n`);
  put("auth/index.d.ts", `export { type AuthData, getAuthData } from "../internal/auth/auth";\n`);
  const register = path.join(dir, "internal/entrypoints/register.js");
  files.set(register, registerJs(model, register));
  put("internal/entrypoints/main.js", MAIN_JS);

  removeStale(dir, new Set(files.keys()));
  for (const [file, content] of files) writeIfChanged(file, content);
  return dir;
}
