import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { scryptCost } from "./hash-cost.ts";

/**
 * Slow, salted, memory-hard hashes for secrets that are only ever compared, never read back.
 * Self-describing, `scrypt$N$r$p$<salt>$<hash>` (base64url), so the cost can be raised later while
 * hashes made with the old cost keep verifying. N=2^14, r=8, p=1 (cheap under
 * `PURSE_HASH_COST=test`, hash-cost.ts).
 */
const saltBytes = 16;
const keyBytes = 32;

// Stored hashes are trusted data, but a corrupted or hostile row must not make verify burn
// gigabytes of memory or minutes of CPU: parameters outside these bounds are simply unreadable.
const encodedPattern =
  /^scrypt\$(\d{1,7})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{22,})$/;
const bounds = { maxN: 2 ** 17, maxR: 16, maxP: 4, minKeyBytes: 16, maxKeyBytes: 64 } as const;

export async function scryptHash(secret: string): Promise<string> {
  const salt = randomBytes(saltBytes);
  const cost = scryptCost();
  const key = await derive(secret, salt, keyBytes, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** False for a wrong secret and for an encoding it cannot read; never throws on bad input. */
export async function verifyScryptHash(secret: string, encoded: string): Promise<boolean> {
  const parsed = parseEncoded(encoded);
  if (!parsed) return false;
  try {
    const actual = await derive(secret, parsed.salt, parsed.key.length, parsed.options);
    return timingSafeEqual(actual, parsed.key);
  } catch {
    return false;
  }
}

function parseEncoded(encoded: string) {
  const match = encodedPattern.exec(encoded);
  if (!match) return null;
  const [, n = "", r = "", p = "", saltText = "", keyText = ""] = match;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const key = Buffer.from(keyText, "base64url");
  const powerOfTwo = options.N > 1 && (options.N & (options.N - 1)) === 0;
  const sane =
    powerOfTwo &&
    options.N <= bounds.maxN &&
    options.r >= 1 &&
    options.r <= bounds.maxR &&
    options.p >= 1 &&
    options.p <= bounds.maxP &&
    key.length >= bounds.minKeyBytes &&
    key.length <= bounds.maxKeyBytes;
  return sane ? { options, salt: Buffer.from(saltText, "base64url"), key } : null;
}

function derive(
  secret: string,
  salt: Buffer,
  length: number,
  options: Required<Pick<ScryptOptions, "N" | "r" | "p">>,
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below what the bounds allow.
  const maxmem = 128 * options.N * options.r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    // NFC: the same password typed on two keyboards can arrive composed or decomposed.
    scrypt(secret.normalize("NFC"), salt, length, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
