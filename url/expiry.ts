// Link expiry: when a link stops resolving, chosen at shorten time or later with PATCH.
import { APIError } from "encore.dev/api";
import { expiryProblem } from "./link-rules";

/** validateExpiry returns `expiresAt` if it is in the future and at most 5 years ahead of `now`. */
export function validateExpiry(expiresAt: Date, now: Date = new Date()): Date {
  const problem = expiryProblem(expiresAt, now);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return expiresAt;
}
