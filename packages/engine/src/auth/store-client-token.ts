import type { EngineDependencies } from "../engine-dependencies.ts";
import { insertTokenPushingOutAndCommit, type NewClientToken } from "./credential-store.ts";
import { announceRevocation } from "./token-cache.ts";

export type { NewClientToken } from "./credential-store.ts";

/**
 * Stores a client's new token and revokes its oldest of the same scope beyond `maxLiveTokens`
 * (contract, "Tokens for clients that ask every call"; an operator's tokens, issued through a
 * client, are not counted), in one transaction under the client's row lock: issuances in
 * parallel, from any number of processes, take turns there, so no moment leaves more live tokens
 * than the bound. On PostgreSQL the transaction runs past the ORM, as a movement's does, in one
 * round trip, so the lock is never held while this process waits. The revocations are announced
 * once committed, so no process's token cache keeps answering for a token pushed out.
 */
export async function storeClientToken(
  deps: Pick<EngineDependencies, "db" | "options" | "tokenCache">,
  token: NewClientToken,
): Promise<void> {
  const keep = deps.options.maxLiveTokens - 1;
  const pushedOut = await deps.db.transact((tx) => insertTokenPushingOutAndCommit(tx, token, keep));
  await Promise.all(pushedOut.map((tokenHash) => announceRevocation(deps, { tokenHash })));
}
