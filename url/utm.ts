// The UTM builder's checks: the request type, the values' length, and the merged target checked again.
import { APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { mergeUtm, UTM_FIELDS } from "./utm-merge";
import { validateTarget } from "./validate-target";

/** Utm holds the five campaign parameters; an absent or empty one is left alone. */
export interface Utm {
  source?: string & MaxLen<400>;
  medium?: string & MaxLen<400>;
  campaign?: string & MaxLen<400>;
  term?: string & MaxLen<400>;
  content?: string & MaxLen<400>;
}

/** The most characters of one value. */
export const MAX_UTM_VALUE = 100;

/** utmProblem names a value longer than 100 characters, or null when every one fits. */
function utmProblem(utm: Utm): string | null {
  const long = UTM_FIELDS.find((f) => [...(utm[f] ?? "")].length > MAX_UTM_VALUE);
  return long === undefined ? null : `utm.${long} must be at most ${MAX_UTM_VALUE} characters`;
}

/**
 * withUtm merges `utm` into a checked target (null removes the parameters) and checks the result again:
 * the parameters may take it past the length limit.
 */
export function withUtm(target: string, utm: Utm | null, ownHosts: readonly string[]): string {
  const problem = utm === null ? null : utmProblem(utm);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return validateTarget(mergeUtm(target, utm), ownHosts);
}
