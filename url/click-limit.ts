// A link's click limit: how many visits it sends on before answering "reached its click limit".
import { APIError } from "encore.dev/api";
import { maxClicksProblem } from "./link-rules";

/** validateMaxClicks returns `maxClicks` if it is a whole number from 1 to 10^9, else throws invalid_argument. */
export function validateMaxClicks(maxClicks: number): number {
  const problem = maxClicksProblem(maxClicks);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return maxClicks;
}
