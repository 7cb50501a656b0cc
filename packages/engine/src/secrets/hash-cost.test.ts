import { afterEach, describe, expect, it, vi } from "vitest";
import { argon2Parameters } from "./argon2-hash.ts";
import { hashCostName } from "./hash-cost.ts";
import { hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";
import { hashSecret, verifySecret } from "./secret-hash.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the cost of new hashes", () => {
  it("is production's unless PURSE_HASH_COST=test says otherwise", () => {
    expect(hashCostName({})).toBe("production");
    expect(hashCostName({ PURSE_HASH_COST: "" })).toBe("production");
    expect(hashCostName({ PURSE_HASH_COST: "cheap" })).toBe("production");
    expect(hashCostName({ PURSE_HASH_COST: "test" })).toBe("test");
  });

  it("is argon2id at 19 MiB, t=2 and scrypt at N=2^14 with the variable unset", async () => {
    vi.stubEnv("PURSE_HASH_COST", undefined);
    expect(await hashPassword("acme-pass")).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hashSecret("acme-secret")).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it("is cheap under PURSE_HASH_COST=test, and those hashes verify with production's settings", async () => {
    vi.stubEnv("PURSE_HASH_COST", "test");
    const password = await hashPassword("acme-pass");
    const secret = await hashSecret("acme-secret");
    expect(argon2Parameters(password)).toEqual({ memoryCost: 64, timeCost: 1, parallelism: 1 });
    expect(secret).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(needsRehash(password)).toBe(false);

    vi.stubEnv("PURSE_HASH_COST", undefined);
    expect(await verifyPassword("acme-pass", password)).toBe(true);
    expect(await verifyPassword("bolt-pass", password)).toBe(false);
    expect(await verifySecret("acme-secret", secret)).toBe(true);
    expect(await verifySecret("acme-secret!", secret)).toBe(false);
    // A cheap hash that reached a production database is replaced at the user's next sign-in.
    expect(needsRehash(password)).toBe(true);
  });
});
