// Custom aliases: the back-half of a short link chosen by its creator instead of a generated code.
import { APIError } from "encore.dev/api";
import { ALIAS_SHAPE, aliasProblem } from "./link-rules";

/** isLinkCode tells whether s could name a link (a generated code or an alias), so others are refused without a query. */
export function isLinkCode(s: string): boolean {
  return ALIAS_SHAPE.test(s);
}

/** validateAlias returns `alias` if a link may be stored under it, else throws invalid_argument saying why. */
export function validateAlias(alias: string): string {
  const problem = aliasProblem(alias);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return alias;
}
