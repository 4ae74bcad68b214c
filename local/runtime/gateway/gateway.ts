// The app's Gateway and its auth handler: which requests carry credentials, what the handler's
// outcome means (runtimes/core/src/api/auth/mod.rs; docs/ts/develop/auth.md), and the 401 Encore
// sends when an endpoint needs auth.
import type { Napi } from "../../model/napi";
import type { AuthHandlerModel, FieldSchema } from "../../model/app-model";
import { appModel } from "../core/context";
import { Request, newTrace } from "../core/request";
import { decodeValue, DecodeError } from "../wire/value-codec";
import { fail, toWireError, WireErrorSignal, type WireError } from "../wire/errors";
import { runIsolated } from "../wire/isolate";
import { cookieParam } from "./http-codec";
import { announceHandlerSpan, channels } from "../core/events";

export class Gateway implements Napi.Gateway {}

type AuthFn = (req: Napi.Request) => unknown;
let authFn: AuthFn | null = null;

export function registerGateway(_name: string, cfg: Napi.GatewayConfig): Gateway {
  if (cfg.auth) authFn = cfg.auth as AuthFn;
  return new Gateway();
}

/** Where the auth handler's parameters are read from. */
export interface CredentialSource {
  headers: Record<string, string | string[] | undefined>;
  query: URLSearchParams;
  cookies: Record<string, string>;
}

/** Authenticated data, or the unauthenticated error the handler gave (null: no credentials sent). */
export type AuthOutcome = { data: Record<string, unknown> } | { data: null; error: WireError | null };

const DEFAULT_UNAUTHENTICATED = "the request does not have valid authentication credentials for the operation";

/** The outcome of a request that carries no credentials, or of an app without an auth handler. */
const NO_CREDENTIALS: AuthOutcome = Object.freeze({ data: null, error: null });

/**
 * Runs the auth handler when the request carries any of its parameters. An unauthenticated error
 * counts as no credentials; any other error fails the request, even on public endpoints. The outcome
 * is returned at once, not as a promise, when the handler does not run: most requests carry no
 * credentials, and the gateway then skips an async step (fewer promises on every request).
 */
export function authenticate(src: CredentialSource, meta: Napi.RequestMeta): AuthOutcome | Promise<AuthOutcome> {
  const handler = appModel().authHandler;
  if (!handler || !authFn) return NO_CREDENTIALS;
  const texts: [FieldSchema, string][] = [];
  let present = false;
  for (const f of handler.params.fields) {
    const raw =
      f.location === "header"
        ? src.headers[f.wireName.toLowerCase()]
        : f.location === "cookie"
          ? src.cookies[f.wireName]
          : (src.query.get(f.wireName) ?? undefined);
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.join(", ") : raw;
    // contains_auth_params: only a non-empty value counts as credentials (api/schema/{header,query,cookie}.rs).
    if (text !== "") present = true;
    texts.push([f, text]);
  }
  if (!present) return NO_CREDENTIALS;
  const params: Record<string, unknown> = {};
  for (const [f, text] of texts) {
    try {
      const value = decodeValue(f.type, text, [f.wireName], "text");
      params[f.name] = f.location === "cookie" ? cookieParam(f.wireName, value) : value;
    } catch (e) {
      if (e instanceof DecodeError) return { data: null, error: toWireError(fail("unauthenticated", e.message)) };
      throw e;
    }
  }
  return runAuthHandler(handler, params, meta);
}

async function runAuthHandler(handler: AuthHandlerModel, params: Record<string, unknown>, meta: Napi.RequestMeta): Promise<AuthOutcome> {
  // Object.assign rather than a spread with more properties, which costs microseconds on Node 20 (see forwarded.ts).
  const req = new Request({ payload: params, meta: Object.assign({}, meta, { trace: newTrace(meta.trace) }) });
  const span = channels.span.hasSubscribers
    ? announceHandlerSpan(req, "auth", { service: handler.service, endpoint: handler.name, payload: params })
    : null;
  let result: unknown;
  try {
    result = await runIsolated(() => authFn!(req));
  } catch (e) {
    const wire = toWireError(e);
    span?.end(wire);
    if (wire.code === "unauthenticated") return { data: null, error: wire };
    throw new WireErrorSignal(wire);
  }
  const data = result as Record<string, unknown> | null;
  span?.end(undefined, { uid: typeof data?.userID === "string" ? data.userID : undefined, userData: data });
  if (!data || typeof data.userID !== "string" || data.userID === "") return NO_CREDENTIALS;
  return { data };
}

/** The 401 for an endpoint that needs auth when the request has none. */
export function unauthenticatedError(outcome: AuthOutcome): WireErrorSignal {
  const message = outcome.data === null && outcome.error ? outcome.error.message : DEFAULT_UNAUTHENTICATED;
  return fail("unauthenticated", message);
}
