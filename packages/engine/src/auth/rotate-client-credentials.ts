import { randomBytes } from "node:crypto";
import { PurseError } from "../errors/index.ts";
import { formTokenBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { hashSecret } from "../secrets/index.ts";
import { findClientIds, replaceClientCredential, revokeLiveTokensOfClient } from "./credential-store.ts";
import { announceRevocation, type TokenCache } from "./token-cache.ts";

/**
 * Operator verbs that contain a leaked credential (`purse clients rotate-secret`,
 * `rotate-form-token`, `revoke-tokens`). A rotation keeps the old value working for an overlap so
 * the merchant can deploy the new one without downtime; an overlap of 0 cuts the old one at once.
 * New values are returned once and stored only hashed (secret) or sealed (form token).
 */
export async function rotateClientSecret(db: Database, clientId: string, overlapMs: number): Promise<string> {
  const secret = randomBytes(24).toString("base64url");
  const secretHash = await hashSecret(secret);
  if (!(await replaceClientCredential(db.em(), clientId, "secret", secretHash, overlapMs)))
    throw new PurseError("NOT_FOUND");
  return secret;
}

/** A new form token; checkouts signed with the old one are accepted until the overlap ends. */
export async function rotateFormToken(
  db: Database,
  secretBox: SecretBox,
  clientId: string,
  overlapMs: number,
): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const sealed = secretBox.seal(token, formTokenBinding(clientId));
  if (!(await replaceClientCredential(db.em(), clientId, "formToken", sealed, overlapMs)))
    throw new PurseError("NOT_FOUND");
  return token;
}

/**
 * Revokes every live access token of a client at once; returns how many were live. With a token
 * cache (whose channel reaches the serving processes), the revocation is announced after it
 * committed, so no process keeps answering from its cache for up to PURSE_TOKEN_CACHE_MS.
 */
export async function revokeClientTokens(
  db: Database,
  clientId: string,
  announceTo: { readonly tokenCache?: TokenCache | undefined } = {},
): Promise<number> {
  // Asked before the statement: on Citus it names the client's user (credential-store.ts).
  await db.distributed();
  const client = await findClientIds(db.em(), clientId);
  if (client === undefined) throw new PurseError("NOT_FOUND");
  const revoked = await revokeLiveTokensOfClient(db.em(), client);
  await announceRevocation(announceTo, { clientId: client.id });
  return revoked;
}
