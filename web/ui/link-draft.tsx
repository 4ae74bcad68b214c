// A link's fields as typed in the form: checked in the page by the url service's own rules
// (url/link-rules.ts), every field at once, and turned into the body of POST /shorten or PATCH /urls/:code.
import {
  aliasProblem,
  checkTarget,
  expiryProblem,
  linkPasswordProblem,
  maxClicksProblem,
  tagsProblem,
  utmValueProblem,
} from "../../url/link-rules";
import { mergeUtm, UTM_FIELDS, type UtmValues } from "../../url/utm-merge";
import { fieldErrors, type FieldErrors, type Link } from "./api";

/** The request fields the form has, in the order errors are read. */
export const LINK_FIELDS = ["url", "alias", "expiresAt", "password", "maxClicks", "tags", "iosUrl", "androidUrl", "utm"] as const;
export type LinkField = (typeof LINK_FIELDS)[number];
export type LinkErrors = FieldErrors<LinkField>;

/** The form's values as typed; `expires` is a datetime-local value, in the user's time zone. */
export interface LinkDraft {
  url: string;
  alias: string;
  expires: string;
  password: string;
  maxClicks: string;
  tags: string;
  iosUrl: string;
  androidUrl: string;
  utm: UtmValues;
}

export const EMPTY_DRAFT: LinkDraft = {
  url: "",
  alias: "",
  expires: "",
  password: "",
  maxClicks: "",
  tags: "",
  iosUrl: "",
  androidUrl: "",
  utm: {},
};

/** A Date as a datetime-local input shows it, in the browser's time zone. */
function localInput(iso: string): string {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** draftOf fills the form from a stored link: its UTM parameters go to their own fields, out of the target. */
export function draftOf(link: Link): LinkDraft {
  const query = URL.canParse(link.originalUrl) ? new URL(link.originalUrl).searchParams : new URLSearchParams();
  const utm: UtmValues = {};
  for (const f of UTM_FIELDS) {
    const value = query.get(`utm_${f}`);
    if (value !== null) utm[f] = value;
  }
  return {
    url: mergeUtm(link.originalUrl, null),
    alias: link.code,
    expires: link.expiresAt === null ? "" : localInput(link.expiresAt),
    password: "",
    maxClicks: link.maxClicks === null ? "" : String(link.maxClicks),
    tags: link.tags.join(", "),
    iosUrl: link.iosUrl ?? "",
    androidUrl: link.androidUrl ?? "",
    utm,
  };
}

/**
 * withScheme adds "https://" to what looks like a bare domain ("example.com/page", "example.com:8080"),
 * as Bitly and Dub do; anything else is left for the rules to judge.
 */
export function withScheme(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("//")) return `https:${trimmed}`;
  return /^[^\s/?#:@]+\.[^\s/?#:@]+(:\d+)?([/?#]|$)/.test(trimmed) ? `https://${trimmed}` : trimmed;
}

/** The draft with https:// added where the URL fields hold a bare domain, so the user sees what is sent. */
export function withSchemes(draft: LinkDraft): LinkDraft {
  return { ...draft, url: withScheme(draft.url), iosUrl: withScheme(draft.iosUrl), androidUrl: withScheme(draft.androidUrl) };
}

/** How each field is named in a sentence. */
const NAMES: Record<LinkField, string> = {
  url: "The long URL",
  alias: "The alias",
  expiresAt: "The expiry",
  password: "The password",
  maxClicks: "The click limit",
  tags: "Tags",
  iosUrl: "The iPhone and iPad URL",
  androidUrl: "The Android URL",
  utm: "UTM",
};

/**
 * inWords turns a rule's or the API's message, which starts with the field's request name
 * ("maxClicks must be ...", "tags: ...", "utm.source must be ..."), into a sentence about the field as
 * the form labels it. Encore's own decoding reasons ("value does not match the regexp ...") are not
 * words a person can act on, so those become "<field> is not valid".
 */
export function inWords(field: LinkField, message: string): string {
  const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
  if (/^(value|invalid|expected|unknown)\b/.test(message)) return sentence(`${NAMES[field]} is not valid`);
  const named = /^(\w+)(?:\.(\w+))?(:?) (.*)$/.exec(message);
  if (named === null || named[1] !== field) return sentence(message);
  const [, , part, colon, rest] = named;
  if (colon) return sentence(rest);
  return sentence(`${part ? `The UTM ${part}` : NAMES[field]} ${rest}`);
}

/** apiErrors puts a refusal of the API beside the field it names, in words. */
export function apiErrors(err: unknown): LinkErrors {
  const errors = fieldErrors(err, LINK_FIELDS, { already_exists: "alias" });
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [field, field === "form" ? message : inWords(field as LinkField, message!)]),
  ) as LinkErrors;
}

/** Whether a draft makes a new link or changes a stored one (which sends null to clear a field). */
export type DraftMode = "create" | "edit";

/**
 * checkDraft checks every field by the API's rules and builds the request body; `errors` holds one
 * message per bad field, all at once. `ownHosts` are this shortener's host names.
 */
export function checkDraft(
  draft: LinkDraft,
  mode: DraftMode,
  ownHosts: readonly string[],
): { body: Record<string, unknown>; errors: LinkErrors } {
  const problems: Partial<Record<LinkField, string | null>> = {};
  const body: Record<string, unknown> = {};
  const cleared = mode === "edit" ? null : undefined;
  const target = (field: "url" | "iosUrl" | "androidUrl", text: string, optional: boolean) => {
    if (optional && text.trim() === "") return cleared;
    const checked = checkTarget(withScheme(text), ownHosts, field);
    problems[field] = checked.problem ?? null;
    return checked.href;
  };

  const url = target("url", draft.url, false);
  const utmGiven = Object.values(draft.utm).some((v) => v !== undefined && v.trim() !== "");
  problems.utm = utmGiven ? utmValueProblem(draft.utm) : null;
  if (url !== undefined && url !== null && utmGiven && !problems.utm) {
    // The parameters may take the target past its length limit.
    const merged = checkTarget(mergeUtm(url, draft.utm), ownHosts);
    if (merged.problem !== undefined) problems.url = merged.problem;
  }
  body.url = url;
  body.utm = utmGiven ? draft.utm : cleared;

  if (mode === "create" && draft.alias.trim() !== "") {
    body.alias = draft.alias.trim();
    problems.alias = aliasProblem(draft.alias.trim());
  }
  if (draft.expires !== "") {
    const at = new Date(draft.expires);
    problems.expiresAt = Number.isNaN(at.getTime()) ? "expiresAt is not a valid date and time" : expiryProblem(at);
    body.expiresAt = Number.isNaN(at.getTime()) ? undefined : at.toISOString();
  } else body.expiresAt = cleared;
  if (draft.password !== "") {
    body.password = draft.password;
    problems.password = linkPasswordProblem(draft.password);
  }
  if (draft.maxClicks.trim() !== "") {
    body.maxClicks = /^\d+$/.test(draft.maxClicks.trim()) ? Number(draft.maxClicks.trim()) : NaN;
    problems.maxClicks = maxClicksProblem(body.maxClicks as number);
  } else body.maxClicks = cleared;
  const tags = draft.tags.split(/[,;\s]+/).filter((t) => t !== "");
  body.tags = tags.length > 0 ? tags : cleared;
  problems.tags = tagsProblem(tags);
  body.iosUrl = target("iosUrl", draft.iosUrl, true);
  body.androidUrl = target("androidUrl", draft.androidUrl, true);

  const errors: LinkErrors = {};
  for (const field of LINK_FIELDS) {
    const problem = problems[field];
    if (problem) errors[field] = inWords(field, problem);
  }
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return { body, errors };
}
