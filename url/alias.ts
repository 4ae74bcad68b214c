// Custom aliases: the back-half of a short link chosen by its creator instead of a generated code.
import { APIError } from "encore.dev/api";
import { isReserved } from "./reserved";

/** ALIAS_SHAPE is what an alias may be. Generated codes fit it too, so it is the shape of any link code. */
const ALIAS_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;

/** isLinkCode tells whether s could name a link (a generated code or an alias), so others are refused without a query. */
export function isLinkCode(s: string): boolean {
  return ALIAS_SHAPE.test(s);
}

/** validateAlias returns `alias` if a link may be stored under it, else throws invalid_argument saying why. */
export function validateAlias(alias: string): string {
  if (!ALIAS_SHAPE.test(alias)) {
    throw APIError.invalidArgument("alias must be 3 to 64 characters, each a letter, a digit, '_' or '-'");
  }
  if (isReserved(alias)) throw APIError.invalidArgument(`alias "${alias}" is reserved`);
  return alias;
}
