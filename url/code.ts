// Short codes: random, unbiased, never shadowed by a route, unique through bounded retries.
import { randomBytes } from "node:crypto";
import { APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { isReserved } from "./reserved";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** CODE_LENGTH is the length of every code; static first path segments never have it (DESIGN.md). */
export const CODE_LENGTH = 6;

/** MAX_CODE_ATTEMPTS bounds the clash retries: with 10^7 of the 36^6 codes taken, 5 clashes in a row has odds ~2e-12. */
export const MAX_CODE_ATTEMPTS = 5;

// Bytes at or above 252 (= 7 × 36) are dropped so that byte % 36 is uniform.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** RandomSource yields cryptographically random bytes; injectable so tests can force a code. */
export type RandomSource = (size: number) => Uint8Array;

/** randomCode draws CODE_LENGTH characters of [0-9a-z] by rejection sampling, so each is equally likely. */
export function randomCode(random: RandomSource = randomBytes): string {
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const byte of random(CODE_LENGTH + 2)) {
      if (byte < UNBIASED_LIMIT && code.length < CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
}

/** codeSource is the generator shorten uses; an object so a test can spy on `next` to force a clash. */
export const codeSource = { next: (): string => randomCode() };

/**
 * allocateCode offers fresh codes to `claim` until it takes one (returns non-null) and returns what it
 * returned. `claim` returns null when the code is already taken. After MAX_CODE_ATTEMPTS clashes it
 * fails with `unavailable`: never a duplicate, never a crash.
 */
export async function allocateCode<T>(
  claim: (code: string) => Promise<T | null>,
  next: () => string = () => codeSource.next(),
): Promise<T> {
  for (let attempt = 1; attempt <= MAX_CODE_ATTEMPTS; attempt++) {
    const code = next();
    if (isReserved(code)) continue;
    const claimed = await claim(code);
    if (claimed !== null) return claimed;
    // Frequent clashes mean the code space is filling up: operators should see it.
    log.warn("short code clash, retrying with another code", { code, attempt });
  }
  throw APIError.unavailable("could not find a free short code, please try again");
}
