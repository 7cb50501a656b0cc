/**
 * How costly the new password and secret hashes are: production's unless `PURSE_HASH_COST=test`.
 * The test suite sets it, so a test that signs in or issues a token spends microseconds where
 * production spends tens of milliseconds of a core, and nothing else changes: every stored hash
 * carries its own parameters (argon2id's PHC string, `scrypt$N$r$p$...`), so verifying reads the
 * cost from the hash, and a cheap hash verifies in production code like any other. The server
 * refuses `PURSE_HASH_COST=test` under `NODE_ENV=production` (config.ts).
 */
export type HashCostName = "production" | "test";

/** argon2id at OWASP's minimum (Password Storage Cheat Sheet): 19 MiB of memory, two passes, one lane. */
const argon2Costs = {
  production: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 64, timeCost: 1, parallelism: 1 },
} as const;

/** scrypt N=2^14, r=8, p=1 (16 MiB): client secrets and voucher codes. */
const scryptCosts = {
  production: { N: 16_384, r: 8, p: 1 },
  test: { N: 16, r: 8, p: 1 },
} as const;

/** The cost new hashes are made with; read at each hash, so a test can change it for one file. */
export function hashCostName(env: NodeJS.ProcessEnv = process.env): HashCostName {
  return env["PURSE_HASH_COST"] === "test" ? "test" : "production";
}

export function argon2Cost(): { memoryCost: number; timeCost: number; parallelism: number } {
  return argon2Costs[hashCostName()];
}

export function scryptCost(): { N: number; r: number; p: number } {
  return scryptCosts[hashCostName()];
}
