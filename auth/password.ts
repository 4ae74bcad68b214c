// Password hashing with scrypt: per-user random salt, explicit cost parameters, and a
// self-describing stored form so the parameters can be raised later without breaking old hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** SCRYPT_PARAMS are the costs for new hashes: N=2^15, r=8, p=1 uses 32 MiB and tens of ms per hash. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = "scrypt";

// Bounds on parameters read back from the database, so a corrupted row cannot make us
// allocate gigabytes (scrypt needs about 128·N·r bytes) or spin for minutes.
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_P = 16;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  // NFKC so the same password typed on different keyboards/OSes hashes the same (NIST SP 800-63B).
  const input = password.normalize("NFKC");
  const options: ScryptOptions = { ...params, maxmem: 2 * 128 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(input, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** hashPassword returns `scrypt$N$r$p$salt$hash` (base64url salt and hash) for a new password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  const key = await derive(password, salt, KEY_BYTES, SCRYPT_PARAMS);
  return [PREFIX, N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** verifyPassword reports whether password matches a stored hash, comparing in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const { params, salt, key } = parseHash(stored);
  const candidate = await derive(password, salt, key.length, params);
  return timingSafeEqual(candidate, key);
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== PREFIX) throw new Error("unrecognized password hash format");
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^[1-9][0-9]{0,9}$/.test(s) ? Number(s) : NaN));
  const powerOfTwo = N >= 2 && Number.isInteger(Math.log2(N));
  if (!powerOfTwo || !(r >= 1 && 128 * N * r <= MAX_MEMORY_BYTES) || !(p >= 1 && p <= MAX_P)) {
    throw new Error("password hash has out-of-range scrypt parameters");
  }
  const salt = Buffer.from(parts[4], "base64url");
  const key = Buffer.from(parts[5], "base64url");
  if (salt.length < SALT_BYTES || key.length < KEY_BYTES) throw new Error("password hash has a short salt or key");
  return { params: { N, r, p }, salt, key };
}
