import { scryptHash, verifyScryptHash } from "./scrypt-hash.ts";

/** A user's password (the hosted page's sign-in), stored only as a slow salted hash. */
export function hashPassword(password: string): Promise<string> {
  return scryptHash(password);
}

/** False for a wrong password or an unreadable stored hash; never throws. */
export function verifyPassword(password: string, storedHash: string): Promise<boolean> {
  return verifyScryptHash(password, storedHash);
}
