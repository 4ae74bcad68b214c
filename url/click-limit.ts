// A link's click limit: how many visits it sends on before answering "reached its click limit".
import { APIError } from "encore.dev/api";

/** MAX_CLICK_LIMIT is the largest maxClicks accepted. */
export const MAX_CLICK_LIMIT = 1_000_000_000;

/** validateMaxClicks returns `maxClicks` if it is a whole number from 1 to 10^9, else throws invalid_argument. */
export function validateMaxClicks(maxClicks: number): number {
  if (!Number.isInteger(maxClicks) || maxClicks < 1 || maxClicks > MAX_CLICK_LIMIT) {
    throw APIError.invalidArgument(`maxClicks must be a whole number from 1 to ${MAX_CLICK_LIMIT}`);
  }
  return maxClicks;
}
