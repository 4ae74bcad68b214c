// Encore's error model on the wire: {code, message, details} with one HTTP status per code, and the
// duck-typed conversion Encore applies to anything a handler throws (runtimes/js/src/error.rs).
import type { Napi } from "../../model/napi";

/** HTTP status for each error code, as Encore's runtime maps them (ErrCode::status_code, runtimes/core/src/api/error.rs). */
export const statusByCode: Record<string, number> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

/** The message Encore shows for an internal error, whatever the handler said. */
const INTERNAL_PUBLIC_MESSAGE = "an internal error occurred";

/** An error on its way to a client or a calling service. */
export interface WireError {
  code: string;
  message: string;
  details: Record<string, unknown> | null;
  /** The real message behind an internal error: logged, sent only when Encore would send it. */
  internalMessage: string | null;
}

/** What an API call resolves to when the callee failed; the SDK rethrows it as APIError. */
export class ApiCallError implements Napi.ApiCallError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  constructor(e: WireError) {
    this.code = e.code;
    this.message = e.message;
    this.details = e.details ?? undefined;
  }
}

/** Builds an error of a known code (validation, routing, auth). */
export function wireError(code: keyof typeof statusByCode, message: string, details: Record<string, unknown> | null = null): WireError {
  return code === "internal"
    ? { code, message: INTERNAL_PUBLIC_MESSAGE, details, internalMessage: message }
    : { code, message, details, internalMessage: null };
}

/** Thrown inside the runtime to abort a request with a given wire error. */
export class WireErrorSignal extends Error {
  constructor(public readonly wire: WireError) {
    super(wire.internalMessage ?? wire.message);
  }
}

/** `internalMessage` is what Encore logs and shows in internal_message next to a public message. */
export function fail(code: keyof typeof statusByCode, message: string, internalMessage: string | null = null): WireErrorSignal {
  const wire = wireError(code, message);
  return new WireErrorSignal(internalMessage === null ? wire : { ...wire, internalMessage });
}

/**
 * Converts a thrown value as Encore does: read .code (unknown codes become internal), .message,
 * .details, and append ": " + cause.message. Internal errors hide their message from clients.
 */
export function toWireError(thrown: unknown): WireError {
  if (thrown instanceof WireErrorSignal) return thrown.wire;
  if (thrown === null || (typeof thrown !== "object" && typeof thrown !== "function")) {
    return { code: "internal", message: INTERNAL_PUBLIC_MESSAGE, details: null, internalMessage: "an unknown exception was thrown" };
  }
  const obj = thrown as { code?: unknown; message?: unknown; details?: unknown; cause?: unknown };
  const rawCode = String(obj.code);
  const code = rawCode in statusByCode ? rawCode : "internal";
  let message = obj.message === undefined ? "" : String(obj.message);
  const cause = obj.cause as { message?: unknown } | null | undefined;
  if (cause !== null && cause !== undefined) message += ": " + String(cause.message);
  const details = obj.details && typeof obj.details === "object" ? (obj.details as Record<string, unknown>) : null;
  if (code === "internal") return { code, message: INTERNAL_PUBLIC_MESSAGE, details, internalMessage: message };
  return { code, message, details, internalMessage: null };
}

/**
 * Whether error bodies carry internal_message. `encore run` sets ENCORE_API_INCLUDE_INTERNAL_MESSAGE=1
 * for every app it runs (cli/daemon/run/run.go), so here it is on unless set to "" or "0", the values
 * Encore's runtime reads as off (runtimes/core/src/api/error.rs).
 */
export function includeInternalMessage(value = process.env.ENCORE_API_INCLUDE_INTERNAL_MESSAGE): boolean {
  return value === undefined || (value !== "" && value !== "0");
}

/** The JSON body Encore sends: with the flag on, internal_message is always present, null or a string. */
export function errorBody(e: WireError, withInternalMessage = includeInternalMessage()): Record<string, unknown> {
  const body: Record<string, unknown> = { code: e.code, message: e.message, details: e.details };
  if (withInternalMessage) body.internal_message = e.internalMessage;
  return body;
}
