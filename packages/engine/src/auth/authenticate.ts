import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { toId } from "../persistence/sql.ts";
import { hashOpaqueToken, opaqueTokenOwner } from "../secrets/index.ts";
import { mayActAsUser } from "./access-scope.ts";
import type { Actor, Role } from "./actor.ts";
import { findLiveToken } from "./credential-store.ts";
import type { VerifiedToken } from "./token-cache.ts";

/**
 * Resolves a bearer token to its user; anything unknown, expired or revoked is `Unauthorized`.
 * With a token cache (`deps.tokenCache`), a token verified within its lifetime (1 s by default)
 * skips the database, and a busy one is renewed in the background; revocations reach every
 * process's cache at once (see token-cache.ts).
 */
export async function authenticate(
  deps: EngineDependencies,
  token: string | null | undefined,
): Promise<Actor> {
  if (!token) throw new PurseError("UNAUTHORIZED");
  const tokenHash = hashOpaqueToken(token);
  const now = deps.now();
  const lookUp = () => lookUpToken(deps, tokenHash, now, opaqueTokenOwner(token));
  const actor = deps.tokenCache
    ? await deps.tokenCache.verify(tokenHash, now, lookUp)
    : (await lookUp())?.actor;
  if (!actor) throw new PurseError("UNAUTHORIZED");
  return actor;
}

async function lookUpToken(
  deps: EngineDependencies,
  tokenHash: string,
  now: Date,
  ownerId: number | undefined,
): Promise<VerifiedToken | undefined> {
  // On the replica while the primary is down: reads keep answering through an outage.
  const row = await deps.db.lookUp((runner) => findLiveToken(runner, tokenHash, now, ownerId));
  return row && verifiedToken(row);
}

/** A live token's row as the caller it stands for and its expiry. */
export function verifiedToken(row: NonNullable<Awaited<ReturnType<typeof findLiveToken>>>): VerifiedToken {
  return {
    actor: {
      userId: toId(row.user_id),
      clientId: row.client_id === null ? null : toId(row.client_id),
      scope: row.scope,
      role: row.role,
    },
    expiresAt: new Date(row.expires_at),
  };
}

/** The spec's 403: the token is valid, but not for this operation's role or scope. */
export function requireAccess(actor: Actor, roles: readonly Role[] = ["merchant", "partner"]): void {
  if (!mayActAsUser(actor, roles)) throw new PurseError("SCOPE_MISSED");
}
