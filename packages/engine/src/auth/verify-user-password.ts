import type { EngineDependencies } from "../engine-dependencies.ts";
import { hashPassword, needsRehash, verifyPassword } from "../secrets/index.ts";
import { inHashQueue } from "./hash-queue.ts";
import { replacePasswordHash } from "./user-store.ts";

export interface StoredPassword {
  readonly id: string | number;
  readonly password_hash: string;
}

// Hashed once, lazily: an unknown login costs the same hash as a known one, so the answer's timing
// does not tell which logins exist.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a user's password (the hosted page's payer, the dashboard's sign-in). After a successful
 * check, a hash made with an older scheme or cost is replaced by today's (argon2id): the password
 * is only ever in hand at sign-in, so that is when the upgrade can happen. The update only applies
 * if the stored hash is still the one that was checked, so a password changed meanwhile is never
 * overwritten. The hashes wait in the process's queue of slow hashes (`secretHashes`, shared with
 * `/token`'s client secrets): past it the caller is told to come back (Service busy, Retry-After).
 */
export async function verifyUserPassword(
  deps: Pick<EngineDependencies, "db" | "secretHashes">,
  user: StoredPassword | undefined,
  password: string,
): Promise<boolean> {
  const queued = <T>(hash: () => Promise<T>) => inHashQueue(deps.secretHashes, hash);
  if (!user) {
    decoyHash ??= hashPassword("purse-decoy-password");
    const decoy = await decoyHash;
    await queued(() => verifyPassword(password, decoy));
    return false;
  }
  if (!(await queued(() => verifyPassword(password, user.password_hash)))) return false;
  if (needsRehash(user.password_hash)) {
    const upgraded = await queued(() => hashPassword(password));
    await replacePasswordHash(deps.db.em(), user.id, user.password_hash, upgraded);
  }
  return true;
}
