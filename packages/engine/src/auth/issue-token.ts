import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { inMode } from "../mode/data-mode.ts";
import { engineFor } from "../mode/engine-for.ts";
import { clockedFor } from "../mode/test-clock.ts";
import { admitTokenRequest, type TokenRefusal } from "../rate-limit/abuse-limits.ts";
import { generateOpaqueToken, hashOpaqueToken, opaqueTokenOwner, verifySecret } from "../secrets/index.ts";
import { findClientCredentials, revokeTokenByHash } from "./credential-store.ts";
import { inHashQueue } from "./hash-queue.ts";
import { storeClientToken } from "./store-client-token.ts";
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
 * database leak does not leak usable tokens. A client holds at most `maxLiveTokens` live tokens:
 * storing a new one revokes its oldest beyond the bound (store-client-token.ts).
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
  if (!client || !(await verifyClientSecret(deps, request.clientId, request.clientSecret, client))) {
    throw new PurseError("OAUTH_INVALID_CLIENT");
  }
  const token = inMode(deps.db.mode === "test", generateOpaqueToken("pat", client.userId));
  const lifetime = deps.options.tokenLifetimeSeconds;
  // A test token's lifetime runs on its merchant's test clock (contract: "Test clock").
  const expiresAt = new Date((await clockedFor(deps, client.userId)).now().getTime() + lifetime * 1000);
  await storeClientToken(deps, {
    tokenHash: hashOpaqueToken(token),
    clientId: client.id,
    userId: client.userId,
    scope,
    expiresAt,
  });
  return { token_type: "Bearer", expires_in: lifetime, access_token: token };
}

/**
 * POST /token's whole call: its two limits, charged before the secret's hash and settled by the
 * outcome (abuse-limits.ts, `admitTokenRequest`), then the grant. Answers the token, or the
 * refusal with its wait (RFC 6749's `temporarily_unavailable`, with Retry-After).
 */
export async function requestToken(
  live: EngineDependencies,
  request: TokenRequest,
  clientAddress: string,
): Promise<IssuedToken | TokenRefusal> {
  // A test client (`test_…`) is test mode's, with limits of its own (contract: "Test mode").
  const deps = engineFor(live, request.clientId);
  const admission = await admitTokenRequest(deps, request, clientAddress);
  if ("retryAfterSeconds" in admission) return admission;
  let token: IssuedToken;
  try {
    token = await issueToken(deps, request);
  } catch (error) {
    if (PurseError.is(error, "SERVICE_BUSY")) {
      // Busy, not judged (or judged right and not stored): neither a guess nor a token issued.
      await admission.withdrawn();
      return { retryAfterSeconds: error.retry?.retryAfterSeconds ?? 1 };
    }
    await admission.failed();
    throw error;
  }
  await admission.issued();
  return token;
}

/**
 * The current secret, or during a rotation's overlap the previous one (`purse clients
 * rotate-secret`): known from a recent verification against the same stored hash (no slow hash),
 * or hashed, and then remembered. The hashes wait their turn in `secretHashes` (auth/hash-queue.ts);
 * when its queue is full the call is refused as busy (SERVICE_BUSY, retry in a second).
 */
async function verifyClientSecret(
  deps: Pick<EngineDependencies, "verifiedSecrets" | "secretHashes">,
  clientId: string,
  secret: string,
  client: { secretHash: string; previousSecretHash: string | null },
): Promise<boolean> {
  const stored = [client.secretHash, client.previousSecretHash].filter((hash) => hash !== null);
  const recalled = deps.verifiedSecrets?.recall(clientId, secret) ?? null;
  if (recalled !== null && stored.includes(recalled)) return true;
  const hashAll = async () => {
    for (const storedHash of stored) if (await verifySecret(secret, storedHash)) return storedHash;
    return null;
  };
  const matched = await inHashQueue(deps.secretHashes, hashAll);
  if (matched === null) return false;
  deps.verifiedSecrets?.remember(clientId, secret, matched);
  return true;
}

/** RFC 7009: revoking an unknown or already revoked token is not an error. */
export async function revokeToken(live: EngineDependencies, token: string): Promise<void> {
  const deps = engineFor(live, token);
  const tokenHash = hashOpaqueToken(token);
  await revokeTokenByHash(deps.db.em(), tokenHash, opaqueTokenOwner(token));
  await announceRevocation(deps, { tokenHash });
}
