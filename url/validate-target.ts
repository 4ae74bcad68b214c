// Which targets may be shortened: the rule is url/link-rules.ts's checkTarget, shared with the web app.
import { APIError } from "encore.dev/api";
import { checkTarget } from "./link-rules";

/**
 * validateTarget returns the normalized form of `raw` or throws invalid_argument naming the problem.
 * `ownHosts` are the hostnames of this shortener. Messages name `field`.
 */
export function validateTarget(raw: string, ownHosts: readonly string[], field = "url"): string {
  const checked = checkTarget(raw, ownHosts, field);
  if (checked.problem !== undefined) throw APIError.invalidArgument(checked.problem);
  return checked.href;
}
