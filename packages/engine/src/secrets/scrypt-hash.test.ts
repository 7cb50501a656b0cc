import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scryptHash, verifyScryptHash } from "./scrypt-hash.ts";

// These are production's hashes: the suite's cheap ones (PURSE_HASH_COST=test) are hash-cost.test.ts's.
beforeAll(() => {
  vi.stubEnv("PURSE_HASH_COST", undefined);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** An encoding written by hand from node:crypto directly: the format, not our code, is the reference. */
function handMade(secret: string, N: number, r: number, p: number, keyLength = 32): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, keyLength, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

describe("scryptHash", () => {
  it("writes scrypt$N$r$p$salt$hash with a 128-bit salt and a 256-bit hash", async () => {
    const encoded = await scryptHash("acme-secret");
    expect(encoded).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(encoded).not.toContain("acme-secret");
  });

  it("salts every hash: one secret never hashes the same twice", async () => {
    const [first, second] = await Promise.all([scryptHash("same"), scryptHash("same")]);
    expect(first).not.toBe(second);
  });

  it("matches node:crypto's scrypt over the stored salt", async () => {
    const encoded = await scryptHash("pw");
    const [, , , , salt = "", key = ""] = encoded.split("$");
    const expected = scryptSync("pw", Buffer.from(salt, "base64url"), 32, { N: 16_384, r: 8, p: 1 });
    expect(Buffer.from(key, "base64url").equals(expected)).toBe(true);
  });
});

describe("verifyScryptHash", () => {
  it("accepts the right secret only", async () => {
    const encoded = await scryptHash("acme-secret");
    expect(await verifyScryptHash("acme-secret", encoded)).toBe(true);
    for (const wrong of ["acme-secreT", "acme-secret ", "acme-secre", "", "x".repeat(1000)]) {
      expect(await verifyScryptHash(wrong, encoded)).toBe(false);
    }
  });

  it("reads the cost from the encoding, so hashes made at another cost keep verifying", async () => {
    expect(await verifyScryptHash("old", handMade("old", 1024, 8, 1))).toBe(true);
    expect(await verifyScryptHash("old", handMade("old", 2048, 4, 2, 16))).toBe(true);
    expect(await verifyScryptHash("new", handMade("old", 1024, 8, 1))).toBe(false);
  });

  it("treats composed and decomposed forms of a character as the same password", async () => {
    const encoded = await scryptHash("caf\u00e9"); // é as one code point
    expect(await verifyScryptHash("cafe\u0301", encoded)).toBe(true); // e + combining acute
    expect(await verifyScryptHash("cafe", encoded)).toBe(false);
  });

  it("handles secrets beyond ASCII", async () => {
    const encoded = await scryptHash("пароль-密码-🔑");
    expect(await verifyScryptHash("пароль-密码-🔑", encoded)).toBe(true);
    expect(await verifyScryptHash("пароль-密码-🔒", encoded)).toBe(false);
  });

  it.each<[string, string]>([
    ["plain text", "acme-secret"],
    ["empty", ""],
    ["another scheme", handMade("x", 1024, 8, 1).replace(/^scrypt/, "bcrypt")],
    ["a missing part", handMade("x", 1024, 8, 1).split("$").slice(0, 5).join("$")],
    ["an extra part", `${handMade("x", 1024, 8, 1)}$AAAA`],
    ["N not a power of two", handMade("x", 1024, 8, 1).replace("$1024$", "$1000$")],
    ["N of one", handMade("x", 1024, 8, 1).replace("$1024$", "$1$")],
    ["an N too costly to try", handMade("x", 1024, 8, 1).replace("$1024$", "$4194304$")],
    ["an r of zero", handMade("x", 1024, 8, 1).replace("$8$1$", "$0$1$")],
    ["a p of zero", handMade("x", 1024, 8, 1).replace("$8$1$", "$8$0$")],
    ["a hash cut short", handMade("x", 1024, 8, 1).slice(0, -30)],
    [
      "characters outside base64url",
      handMade("x", 1024, 8, 1).replace(/\$([^$]+)$/, "$+/+/+/+/+/+/+/+/+/+/+/+/+/"),
    ],
  ])("answers false, without throwing, for %s", async (_case, encoded) => {
    await expect(verifyScryptHash("x", encoded)).resolves.toBe(false);
  });
});
