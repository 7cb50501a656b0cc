import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { generateOpaqueToken, hashOpaqueToken, verifySecret } from "../secrets/index.ts";
import { findClientCredentials, insertAccessToken, revokeTokenByHash } from "./credential-store.ts";
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
  const client = await findClientCredentials(em, request.clientId);
  if (!client || !(await verifyClientSecret(request.clientSecret, client))) {
    throw new PurseError("OAUTH_INVALID_CLIENT");
  }
  const token = generateOpaqueToken();
  const lifetime = deps.options.tokenLifetimeSeconds;
  const expiresAt = new Date(deps.now().getTime() + lifetime * 1000);
  await insertAccessToken(em, {
    tokenHash: hashOpaqueToken(token),
    clientId: client.id,
    userId: client.userId,
    scope,
    expiresAt,
  });
  return { token_type: "Bearer", expires_in: lifetime, access_token: token };
}

/** The current secret, or during a rotation's overlap the previous one (`purse clients rotate-secret`). */
async function verifyClientSecret(
  secret: string,
  client: { secretHash: string; previousSecretHash: string | null },
): Promise<boolean> {
  if (await verifySecret(secret, client.secretHash)) return true;
  return client.previousSecretHash !== null && verifySecret(secret, client.previousSecretHash);
}

/** RFC 7009: revoking an unknown or already revoked token is not an error. */
export async function revokeToken(deps: EngineDependencies, token: string): Promise<void> {
  const tokenHash = hashOpaqueToken(token);
  await revokeTokenByHash(deps.db.em(), tokenHash);
  await announceRevocation(deps, { tokenHash });
}
