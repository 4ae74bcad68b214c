// Calls a registered typed endpoint with a decoded payload, the way the runtime does for both
// HTTP requests and service-to-service calls.
import type { Napi } from "../../model/napi";
import { Request } from "../core/request";
import type { RegisteredEndpoint } from "./registry";
import { runIsolated } from "../wire/isolate";
import { isoNow } from "../core/clock";

/** What the SDK's handler wrapper returns (InternalHandlerResponse in encore.dev/internal/appinit). */
export interface HandlerResult {
  payload: unknown;
  extraHeaders?: Record<string, string | string[]>;
  status?: number;
}

/** Where and how an endpoint was called: the apiCall part of its request metadata, less the payload. */
export interface CallSite {
  method: string;
  path: string;
  pathAndQuery: string;
  pathParams: Record<string, string>;
  headers: Record<string, unknown>;
}

/** The apiCall part of request metadata for an endpoint call. */
function apiCallMeta(ep: Pick<RegisteredEndpoint, "model">, call: CallSite, payload: unknown): Napi.ApiCallData {
  return {
    api: { service: ep.model.service, endpoint: ep.model.name, raw: ep.model.raw, requiresAuth: ep.model.auth, tags: ep.model.tags },
    method: call.method,
    path: call.path,
    pathAndQuery: call.pathAndQuery,
    pathParams: call.pathParams,
    parsedPayload: payload ?? undefined,
    headers: call.headers,
  };
}

/** The metadata a handler of `ep` sees for a call (a module function: a closure per request costs more). */
export function requestMeta(
  ep: Pick<RegisteredEndpoint, "model">,
  trace: Napi.TraceData,
  call: CallSite,
  payload: unknown,
): Napi.RequestMeta {
  return { startedAt: isoNow(), trace, apiCall: apiCallMeta(ep, call, payload) };
}

export async function invokeTyped(
  ep: RegisteredEndpoint,
  payload: Record<string, unknown> | null,
  meta: Napi.RequestMeta,
  authData: Record<string, unknown> | null,
): Promise<HandlerResult> {
  const req = new Request({ payload, meta, authData });
  return (await runIsolated(() => ep.route.handler(req))) as HandlerResult;
}
