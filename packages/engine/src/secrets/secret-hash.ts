import { scryptHash, verifyScryptHash } from "./scrypt-hash.ts";

/**
 * Client secrets and voucher codes: people choose or transcribe them, so they may be guessable,
 * and they are only ever compared. They get the same slow salted hash as passwords; a leaked table
 * then yields no usable secret.
 */
export function hashSecret(secret: string): Promise<string> {
  return scryptHash(secret);
}

/** False for a wrong secret or an unreadable stored hash; never throws. */
export function verifySecret(secret: string, storedHash: string): Promise<boolean> {
  return verifyScryptHash(secret, storedHash);
}
