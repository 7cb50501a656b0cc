import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import { hashOpaqueToken } from "../secrets/index.ts";
import type { Actor, Role } from "./actor.ts";
import { apiScope } from "./issue-token.ts";

/** Resolves a bearer token to its user; anything unknown, expired or revoked is `Unauthorized`. */
export async function authenticate(
  deps: EngineDependencies,
  token: string | null | undefined,
): Promise<Actor> {
  if (!token) throw new PurseError("UNAUTHORIZED");
  const row = await firstRow(
    deps.db.em(),
    sql<{ user_id: string; client_id: string; scope: string; role: Role }>`
      select t.user_id, t.client_id, t.scope, u.role
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${hashOpaqueToken(token)} and t.revoked_at is null and t.expires_at > ${deps.now()}`,
  );
  if (!row) throw new PurseError("UNAUTHORIZED");
  return { userId: toId(row.user_id), clientId: toId(row.client_id), scope: row.scope, role: row.role };
}

/** The spec's 403: the token is valid, but not for this operation's role or scope. */
export function requireAccess(actor: Actor, roles: readonly Role[] = ["merchant", "partner"]): void {
  if (!actor.scope.split(/\s+/).includes(apiScope) || !roles.includes(actor.role)) {
    throw new PurseError("SCOPE_MISSED");
  }
}
