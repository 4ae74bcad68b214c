// The UTM builder's checks: the request type, the values' length, and the merged target checked again.
import { APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { utmValueProblem } from "./link-rules";
import { mergeUtm } from "./utm-merge";
import { validateTarget } from "./validate-target";

/** Utm holds the five campaign parameters; an absent or empty one is left alone. */
export interface Utm {
  source?: string & MaxLen<400>;
  medium?: string & MaxLen<400>;
  campaign?: string & MaxLen<400>;
  term?: string & MaxLen<400>;
  content?: string & MaxLen<400>;
}

/**
 * withUtm merges `utm` into a checked target (null removes the parameters) and checks the result again:
 * the parameters may take it past the length limit.
 */
export function withUtm(target: string, utm: Utm | null, ownHosts: readonly string[]): string {
  const problem = utm === null ? null : utmValueProblem(utm);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return validateTarget(mergeUtm(target, utm), ownHosts);
}
