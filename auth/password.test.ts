import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, SCRYPT_PARAMS, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores scrypt parameters, a random salt and the key, and never the password", async () => {
    const password = "correct horse battery staple";
    const hash = await hashPassword(password);
    const { N, r, p } = SCRYPT_PARAMS;
    expect(hash).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(hash).not.toContain(password);
    expect(await hashPassword(password)).not.toBe(hash);
  });

  it("accepts the right password and rejects others", async () => {
    const hash = await hashPassword("s3cret-passphrase");
    expect(await verifyPassword("s3cret-passphrase", hash)).toBe(true);
    expect(await verifyPassword("s3cret-passphrasE", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("treats Unicode-equivalent spellings of a password alike (NFKC)", async () => {
    const hash = await hashPassword("ｐａｓｓｗｏｒｄ１２");
    expect(await verifyPassword("password12", hash)).toBe(true);
  });

  it("verifies with the parameters stored in the hash, so old hashes survive a cost increase", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("older-password", salt, 32, { N: 1024, r: 4, p: 2 });
    const stored = `scrypt$1024$4$2$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("older-password", stored)).toBe(true);
    expect(await verifyPassword("older-passwore", stored)).toBe(false);
  });

  it("refuses malformed or dangerous stored hashes instead of guessing", async () => {
    const hash = await hashPassword("whatever-password");
    const [, , , , salt, key] = hash.split("$");
    await expect(verifyPassword("x", "plaintext")).rejects.toThrow("unrecognized password hash format");
    await expect(verifyPassword("x", `bcrypt$16384$8$1$${salt}$${key}`)).rejects.toThrow("unrecognized");
    await expect(verifyPassword("x", `scrypt$${2 ** 24}$8$1$${salt}$${key}`)).rejects.toThrow("out-of-range");
    await expect(verifyPassword("x", `scrypt$1000$8$1$${salt}$${key}`)).rejects.toThrow("out-of-range");
    await expect(verifyPassword("x", `scrypt$16384$8$1$${salt}$AAAA`)).rejects.toThrow("short salt or key");
  });
});
