// Service-to-service calls (~encore/clients): the payload and the result go through the schemas as
// they would on the wire, validation and auth apply, and failures come back as ApiCallError.
import type { Napi } from "../../model/napi";
import { rootLogger } from "../core/logger";
import { newTrace } from "../core/request";
import { decodeJson, encodeJson, DecodeError } from "../wire/value-codec";
import { ApiCallError, toWireError, wireError } from "../wire/errors";
import { registeredEndpoint } from "./registry";
import { invokeTyped, requestMeta } from "./invoke";
import { announceOperation, announceSpan, channels } from "../core/events";

function fillPath(path: string, params: Record<string, unknown>): { path: string; pathParams: Record<string, string> } {
  const pathParams: Record<string, string> = {};
  const filled = path
    .split("/")
    .map((seg) => {
      if (!/^[:*!]/.test(seg)) return seg;
      const v = String(params[seg.slice(1)] ?? "");
      pathParams[seg.slice(1)] = v;
      return encodeURIComponent(v);
    })
    .join("/");
  return { path: filled, pathParams };
}

export async function apiCall(
  service: string,
  endpoint: string,
  payload: unknown,
  source: Napi.Request | null,
  opts: Napi.CallOpts | null,
): Promise<Record<string, unknown> | null | ApiCallError> {
  const ep = registeredEndpoint(service, endpoint);
  if (!ep) return new ApiCallError(wireError("not_found", `endpoint ${service}.${endpoint} not found`));
  if (ep.model.raw) return new ApiCallError(wireError("unimplemented", "raw endpoints cannot be called through ~encore/clients"));

  const authData = (opts?.authData ?? source?.getAuthData() ?? null) as Record<string, unknown> | null;
  if (ep.model.auth && (!authData || typeof authData.userID !== "string")) {
    return new ApiCallError(wireError("unauthenticated", "endpoint requires auth but none provided"));
  }

  let params: Record<string, unknown> | null = null;
  if (ep.model.request) {
    try {
      params = decodeJson(ep.model.request, encodeJson(ep.model.request, payload), "unable to decode request body");
    } catch (e) {
      if (e instanceof DecodeError) return new ApiCallError(wireError("invalid_argument", e.message));
      throw e;
    }
  }

  const { path, pathParams } = fillPath(ep.model.path, params ?? {});
  const sourceTrace = source?.meta().trace;
  const meta = requestMeta(
    ep,
    newTrace(sourceTrace),
    { method: ep.model.methods[0], path, pathAndQuery: path, pathParams, headers: {} },
    params,
  );
  // Encore's RPCCallStart in the caller's span, and the callee's span pointing back at it.
  const callEvent = announceOperation(channels.call, source, "rpc_call", { service, endpoint });
  const span = channels.span.hasSubscribers
    ? announceSpan({
        kind: "request",
        ids: meta.trace!,
        service: ep.model.service,
        endpoint: ep.model.name,
        sensitive: ep.model.sensitive,
        method: meta.apiCall!.method,
        path,
        pathParams,
        callerEventId: callEvent?.id,
      })
    : null;
  span?.requestPayload(params);
  try {
    const result = await invokeTyped(ep, params, meta, authData);
    const response = ep.model.response
      ? decodeJson(ep.model.response, encodeJson(ep.model.response, result.payload), "unable to decode response body")
      : null;
    span?.responsePayload(response);
    span?.end();
    callEvent?.finish();
    return response;
  } catch (e) {
    const wire = toWireError(e);
    span?.end(wire);
    callEvent?.finish(null, wire);
    if (wire.internalMessage) rootLogger.with({ service, endpoint }).log(null, 5, "internal error in service call", e as Error);
    return new ApiCallError(wire);
  }
}
