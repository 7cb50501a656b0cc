import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { argon2Cost } from "./hash-cost.ts";

/**
 * argon2id with OWASP's minimum parameters (Password Storage Cheat Sheet): 19 MiB of memory, two
 * passes, one lane (cheap ones under `PURSE_HASH_COST=test`, hash-cost.ts). The PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`) carries its parameters, so they can be raised
 * later while older hashes keep verifying.
 */

// The package's `Algorithm` is a const enum, which isolated modules cannot read: 2 is Argon2id.
const argon2id = 2 as Algorithm;

// A corrupted or hostile stored hash must not make verify allocate gigabytes or spin for minutes.
const phcPattern =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{22,}$/;
const bounds = { maxMemoryKiB: 262_144, maxTime: 10, maxParallelism: 8 } as const;

export function argon2Hash(secret: string): Promise<string> {
  return hash(secret.normalize("NFC"), { algorithm: argon2id, ...argon2Cost() });
}

/** False for a wrong secret or an encoding it refuses to read; never throws. */
export async function verifyArgon2Hash(secret: string, encoded: string): Promise<boolean> {
  const cost = argon2Parameters(encoded);
  if (!cost) return false;
  try {
    return await verify(encoded, secret.normalize("NFC"));
  } catch {
    return false;
  }
}

/** The cost an argon2id hash was made with; null when it is not one this code will read. */
export function argon2Parameters(
  encoded: string,
): { memoryCost: number; timeCost: number; parallelism: number } | null {
  const match = phcPattern.exec(encoded);
  if (!match) return null;
  const [memoryCost, timeCost, parallelism] = match.slice(1, 4).map(Number) as [number, number, number];
  const sane =
    memoryCost >= 8 * parallelism &&
    memoryCost <= bounds.maxMemoryKiB &&
    timeCost >= 1 &&
    timeCost <= bounds.maxTime &&
    parallelism >= 1 &&
    parallelism <= bounds.maxParallelism;
  return sane ? { memoryCost, timeCost, parallelism } : null;
}
