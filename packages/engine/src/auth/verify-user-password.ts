import type { Database } from "../persistence/database.ts";
import { hashPassword, needsRehash, verifyPassword } from "../secrets/index.ts";
import { replacePasswordHash } from "./user-store.ts";

export interface StoredPassword {
  readonly id: string | number;
  readonly password_hash: string;
}

// Hashed once, lazily: an unknown login costs the same hash as a known one, so the answer's timing
// does not tell which logins exist.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a user's password (the hosted page's sign-in). After a successful check, a hash made with
 * an older scheme or cost is replaced by today's (argon2id): the password is only ever in hand at
 * sign-in, so that is when the upgrade can happen. The update only applies if the stored hash is
 * still the one that was checked, so a password changed meanwhile is never overwritten.
 */
export async function verifyUserPassword(
  db: Database,
  user: StoredPassword | undefined,
  password: string,
): Promise<boolean> {
  if (!user) {
    decoyHash ??= hashPassword("purse-decoy-password");
    await verifyPassword(password, await decoyHash);
    return false;
  }
  if (!(await verifyPassword(password, user.password_hash))) return false;
  if (needsRehash(user.password_hash)) {
    const upgraded = await hashPassword(password);
    await replacePasswordHash(db.em(), user.id, user.password_hash, upgraded);
  }
  return true;
}
