import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";

// These are production's hashes: the suite's cheap ones (PURSE_HASH_COST=test) are hash-cost.test.ts's.
beforeAll(() => {
  vi.stubEnv("PURSE_HASH_COST", undefined);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** A scrypt hash as Purse wrote them before argon2id (N=2^14), built from node:crypto directly. */
function oldScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16_384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

describe("password hashes", () => {
  it("are argon2id at OWASP's parameters (19 MiB, t=2, p=1)", async () => {
    const stored = await hashPassword("acme-pass");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(needsRehash(stored)).toBe(false);
  });

  it("verify the right password only and never contain it", async () => {
    const stored = await hashPassword("acme-pass");
    expect(stored).not.toContain("acme-pass");
    expect(await verifyPassword("acme-pass", stored)).toBe(true);
    expect(await verifyPassword("bolt-pass", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("still verify the scrypt hashes stored before, and mark them for an upgrade", async () => {
    const old = oldScryptHash("acme-pass");
    expect(await verifyPassword("acme-pass", old)).toBe(true);
    expect(await verifyPassword("bolt-pass", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it("mark argon2id hashes below today's cost for an upgrade", () => {
    const weak =
      "$argon2id$v=19$m=4096,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI";
    expect(needsRehash(weak)).toBe(true);
  });

  it("refuse a password stored in clear text, or a hash too costly to try, instead of comparing it", async () => {
    expect(await verifyPassword("acme-pass", "acme-pass")).toBe(false);
    const stored = await hashPassword("acme-pass");
    const hostile = stored.replace("m=19456", "m=4194304");
    expect(await verifyPassword("acme-pass", hostile)).toBe(false);
  });
});
