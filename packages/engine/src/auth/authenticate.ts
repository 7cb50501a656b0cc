import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import { hashOpaqueToken } from "../secrets/index.ts";
import type { Actor, Role } from "./actor.ts";
import { apiScope } from "./issue-token.ts";

/**
 * Resolves a bearer token to its user; anything unknown, expired or revoked is `Unauthorized`.
 * With a token cache (`deps.tokenCache`), a token verified within its lifetime (1 s by default)
 * skips the database; revocations reach every process's cache at once (see token-cache.ts).
 */
export async function authenticate(
  deps: EngineDependencies,
  token: string | null | undefined,
): Promise<Actor> {
  if (!token) throw new PurseError("UNAUTHORIZED");
  const tokenHash = hashOpaqueToken(token);
  const now = deps.now();
  const cache = deps.tokenCache;
  const cached = cache?.lookup(tokenHash, now);
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const row = await firstRow(
    deps.db.em(),
    sql<{ user_id: string; client_id: string; scope: string; role: Role; expires_at: Date | string }>`
      select t.user_id, t.client_id, t.scope, u.role, t.expires_at
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${tokenHash} and t.revoked_at is null and t.expires_at > ${now}`,
    "purse_token",
  );
  if (!row) throw new PurseError("UNAUTHORIZED");
  const actor: Actor = {
    userId: toId(row.user_id),
    clientId: toId(row.client_id),
    scope: row.scope,
    role: row.role,
  };
  cache?.remember(tokenHash, actor, new Date(row.expires_at), generation);
  return actor;
}

/** The spec's 403: the token is valid, but not for this operation's role or scope. */
export function requireAccess(actor: Actor, roles: readonly Role[] = ["merchant", "partner"]): void {
  if (!actor.scope.split(/\s+/).includes(apiScope) || !roles.includes(actor.role)) {
    throw new PurseError("SCOPE_MISSED");
  }
}
