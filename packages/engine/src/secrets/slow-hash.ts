import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords, client secrets and voucher codes are kept only as scrypt hashes (memory-hard, salted),
 * encoded with their parameters so they can be raised later: `scrypt$N$r$p$salt$hash`.
 */
const parameters = { N: 16_384, r: 8, p: 1 } as const;
const keyLength = 32;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret.normalize("NFC"),
      salt,
      keyLength,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, parameters);
  return [
    "scrypt",
    parameters.N,
    parameters.r,
    parameters.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** False for a wrong secret and for a hash this code cannot read; never throws on bad input. */
export async function verifySecret(secret: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = encoded.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64url");
  const actual = await derive(secret, Buffer.from(saltText, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A user's password: the same slow hash, named for what it protects. */
export const hashPassword = hashSecret;
export const verifyPassword = verifySecret;
