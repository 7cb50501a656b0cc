import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import { generateOpaqueToken, hashOpaqueToken, verifySecret } from "../secrets/index.ts";
import { announceRevocation } from "./token-cache.ts";

export interface TokenRequest {
  readonly grantType?: string | null;
  readonly clientId?: string | null;
  readonly clientSecret?: string | null;
  readonly scope?: string | null;
}

export interface IssuedToken {
  readonly token_type: "Bearer";
  readonly expires_in: number;
  readonly access_token: string;
}

/** The only scope this service grants; a token without it cannot call the API. */
export const apiScope = "api";

/**
 * Client-credentials grant (RFC 6749 4.4). Tokens are opaque; only their SHA-256 is stored, so a
 * database leak does not leak usable tokens.
 */
export async function issueToken(deps: EngineDependencies, request: TokenRequest): Promise<IssuedToken> {
  if (!request.grantType) throw new PurseError("OAUTH_INVALID_REQUEST", "grant_type");
  if (request.grantType !== "client_credentials")
    throw new PurseError("OAUTH_UNSUPPORTED_GRANT_TYPE", "grant_type");
  if (!request.clientId || !request.clientSecret || request.clientId.includes("\u0000")) {
    throw new PurseError("OAUTH_INVALID_CLIENT");
  }
  const scope = request.scope?.trim() || apiScope;
  if (scope.split(/\s+/).some((item) => item !== apiScope))
    throw new PurseError("OAUTH_INVALID_SCOPE", "scope");

  const em = deps.db.em();
  const client = await firstRow(
    em,
    sql<{ id: string; user_id: string; secret_hash: string; previous_secret_hash: string | null }>`
      select id, user_id, secret_hash,
        case when previous_secret_until > now() then previous_secret_hash end as previous_secret_hash
      from clients where client_id = ${request.clientId}`,
  );
  if (!client || !(await verifyClientSecret(request.clientSecret, client))) {
    throw new PurseError("OAUTH_INVALID_CLIENT");
  }
  const token = generateOpaqueToken();
  const lifetime = deps.options.tokenLifetimeSeconds;
  const expiresAt = new Date(deps.now().getTime() + lifetime * 1000);
  await sql`insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
    values (${hashOpaqueToken(token)}, ${toId(client.id)}, ${toId(client.user_id)}, ${scope}, ${expiresAt})`.execute(
    em.getKysely(),
  );
  return { token_type: "Bearer", expires_in: lifetime, access_token: token };
}

/** The current secret, or during a rotation's overlap the previous one (`purse clients rotate-secret`). */
async function verifyClientSecret(
  secret: string,
  client: { secret_hash: string; previous_secret_hash: string | null },
): Promise<boolean> {
  if (await verifySecret(secret, client.secret_hash)) return true;
  return client.previous_secret_hash !== null && verifySecret(secret, client.previous_secret_hash);
}

/** RFC 7009: revoking an unknown or already revoked token is not an error. */
export async function revokeToken(deps: EngineDependencies, token: string): Promise<void> {
  const tokenHash = hashOpaqueToken(token);
  await sql`update access_tokens set revoked_at = now()
    where token_hash = ${tokenHash} and revoked_at is null`.execute(deps.db.em().getKysely());
  await announceRevocation(deps, { tokenHash });
}
