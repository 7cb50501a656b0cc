import { argon2Hash, argon2Parameters, verifyArgon2Hash } from "./argon2-hash.ts";
import { argon2Cost } from "./hash-cost.ts";
import { verifyScryptHash } from "./scrypt-hash.ts";

/**
 * A user's password (the hosted page's sign-in), stored only as a slow salted hash: argon2id at
 * OWASP's parameters. Hashes made earlier with scrypt (N=2^14, below OWASP's current minimum) still
 * verify, and are replaced at the user's next successful sign-in (`needsRehash`).
 */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password);
}

/** False for a wrong password or an unreadable stored hash; never throws. */
export function verifyPassword(password: string, storedHash: string): Promise<boolean> {
  if (storedHash.startsWith("$argon2id$")) return verifyArgon2Hash(password, storedHash);
  if (storedHash.startsWith("scrypt$")) return verifyScryptHash(password, storedHash);
  return Promise.resolve(false);
}

/** True when the stored hash is weaker than what `hashPassword` makes today (another scheme or cost). */
export function needsRehash(storedHash: string): boolean {
  const cost = argon2Parameters(storedHash);
  const today = argon2Cost();
  return (
    cost === null ||
    cost.memoryCost < today.memoryCost ||
    cost.timeCost < today.timeCost ||
    cost.parallelism < today.parallelism
  );
}
