import type { EngineDependencies } from "../engine-dependencies.ts";
import { deleteOldestLiveTokens, insertAccessToken, lockClientForIssuance } from "./credential-store.ts";
import { announceRevocation } from "./token-cache.ts";

/** A client's new access token, as stored (its SHA-256, never the token). */
export interface NewClientToken {
  readonly tokenHash: string;
  readonly clientId: number;
  readonly userId: number;
  readonly scope: string;
  readonly expiresAt: Date;
}

/**
 * Stores a client's new token and revokes its oldest of the same scope beyond `maxLiveTokens`
 * (an operator's tokens, issued through a client, are not counted; contract, "Tokens
 * for clients that ask every call"), in one transaction under the client's row lock: issuances in
 * parallel, from any number of processes, take turns there, so no moment leaves more live tokens
 * than the bound. The revocations are announced once committed, so no process's token cache keeps
 * answering for a token pushed out.
 */
export async function storeClientToken(
  deps: Pick<EngineDependencies, "db" | "options" | "tokenCache">,
  token: NewClientToken,
): Promise<void> {
  const pushedOut = await deps.db.em().transactional(async (tx) => {
    await lockClientForIssuance(tx, token.clientId);
    const oldest = await deleteOldestLiveTokens(
      tx,
      token.clientId,
      token.scope,
      deps.options.maxLiveTokens - 1,
    );
    await insertAccessToken(tx, token);
    return oldest;
  });
  await Promise.all(pushedOut.map((tokenHash) => announceRevocation(deps, { tokenHash })));
}
