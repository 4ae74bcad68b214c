// Calls to the app's own API (same origin), with the session's access token: renewed before it
// expires and once more when the API refuses it; a session that cannot be renewed has ended.
import { accessToken, renewAfter, SESSION_ENDED, signOut } from "./session";
import type { Link as StoredLink } from "../../url/link";
export type { AccountClicks, ClickReport, NamedClicks } from "../../url/click-report-types";

/**
 * Encore's message for a body field that did not decode: the field's path (`email`, `items[2].name`),
 * the reason, and where serde_json stopped ("unable to decode request body: email: value is not an
 * email at line 1 column 33").
 */
const BODY_FIELD_ERROR = /^unable to decode request body: ([A-Za-z_$][\w$]*)(?:\.[\w$]+|\[\d+\])*: (.*?)(?: at line \d+ column \d+)?$/;

/** An Encore error body: {code, message, details}, with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /**
   * Which of `fields` the message is about, and the words to show beside it: the services start
   * with the field ("url is not a valid URL"); Encore's decoding of the body puts its path first.
   */
  field<F extends string>(fields: readonly F[]): { field: F; message: string } | null {
    // "maxClicks must be ...", "tags: each tag ...", "utm.source must be ...".
    const named = fields.find((f) => new RegExp(`^${f}[ :.]`).test(this.message));
    if (named) return { field: named, message: this.message };
    const decode = BODY_FIELD_ERROR.exec(this.message);
    const field = decode && fields.find((f) => f === decode[1]);
    return field ? { field, message: decode[2] } : null;
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await authorizedFetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text === "" ? null : (JSON.parse(text) as unknown);
  if (res.ok) return json as T;
  throw failure(res.status, json);
}

/** postFile POSTs a file's text as `type` and answers the response's text (POST /urls/import's JSON lines). */
export async function postFile(path: string, file: File, type: string): Promise<string> {
  const res = await authorizedFetch(path, { method: "POST", headers: { "Content-Type": type }, body: await file.text() });
  const text = await res.text();
  if (res.ok) return text;
  throw failure(res.status, text === "" ? null : (JSON.parse(text) as unknown));
}

/**
 * authorizedFetch sends a request with the session's access token, renewing it first when it is about
 * to expire, and once more after a 401 (the token expired on the way, or the server restarted with a
 * new key). A 401 after that, or a session that cannot be renewed, has ended: the page says so.
 */
async function authorizedFetch(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Response> {
  const send = (token: string | null) =>
    fetch(path, { ...init, headers: token === null ? init.headers : { ...init.headers, Authorization: `Bearer ${token}` } });
  try {
    const token = await accessToken();
    const res = await send(token);
    if (res.status !== 401 || token === null) return res;
    const renewed = await renewAfter(token);
    if (renewed === null) return res;
    const retried = await send(renewed);
    if (retried.status === 401) signOut(SESSION_ENDED);
    return retried;
  } catch {
    throw new ApiError(0, "unavailable", "the server cannot be reached; check your connection and try again");
  }
}

/** The ApiError of a failed answer. */
function failure(status: number, json: unknown): ApiError {
  const err = (json ?? {}) as { code?: string; message?: string };
  return new ApiError(status, err.code ?? "unknown", err.message ?? `request failed with status ${status}`);
}

/**
 * download saves what a GET of `path` answers as a file, named as its Content-Disposition says. A plain
 * link cannot carry the token, so the page fetches the file and hands the browser a local copy.
 */
export async function download(path: string): Promise<void> {
  const res = await authorizedFetch(path, {});
  if (!res.ok) throw failure(res.status, await res.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "download";
  const href = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

// The API's shapes (see the services' READMEs).

export interface ShortenResponse {
  code: string;
  shortUrl: string;
  qrCodeUrl: string;
  originalUrl: string;
  expiresAt?: string;
}

/** T as JSON carries it: a Date field arrives as its RFC 3339 string. */
export type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** One of the caller's links, as GET /urls lists it (the url service's own type, url/link.ts). */
export type Link = Json<StoredLink>;

export interface LinkPage {
  urls: Link[];
  nextCursor?: string;
}

export interface LinkStats {
  code: string;
  originalUrl: string;
  clicks: number;
}

export interface Daily {
  days: { date: string; urlsCreated: number }[];
  total: number;
}

export interface Summary {
  linksCreated: number;
  activeLinks: number;
  totalClicks: number;
}

/** Errors by form field: the API's message goes beside the field it names, anything else to the form. */
export type FieldErrors<F extends string> = Partial<Record<F | "form", string>>;

export function fieldErrors<F extends string>(err: unknown, fields: readonly F[], byCode: Partial<Record<string, F>> = {}): FieldErrors<F> {
  if (!(err instanceof ApiError)) return { form: "Something went wrong. Please try again." } as FieldErrors<F>;
  const about = err.field(fields);
  if (about) return { [about.field]: about.message } as FieldErrors<F>;
  const field = byCode[err.code];
  return (field ? { [field]: err.message } : { form: err.message }) as FieldErrors<F>;
}
