import { randomBytes } from "node:crypto";
import { PurseError } from "../errors/index.ts";
import { formTokenBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, rows, sql, toId } from "../persistence/sql.ts";
import { hashSecret } from "../secrets/index.ts";
import { announceRevocation, type TokenCache } from "./token-cache.ts";

/**
 * Operator verbs that contain a leaked credential (`purse clients rotate-secret`,
 * `rotate-form-token`, `revoke-tokens`). A rotation keeps the old value working for an overlap so
 * the merchant can deploy the new one without downtime; an overlap of 0 cuts the old one at once.
 * New values are returned once and stored only hashed (secret) or sealed (form token).
 */
export async function rotateClientSecret(db: Database, clientId: string, overlapMs: number): Promise<string> {
  const secret = randomBytes(24).toString("base64url");
  const updated = await rows(
    db.em(),
    sql<{ id: string }>`update clients set previous_secret_hash = secret_hash,
        previous_secret_until = now() + make_interval(secs => ${overlapMs / 1000}),
        secret_hash = ${await hashSecret(secret)}
      where client_id = ${clientId} returning id`,
  );
  if (updated.length === 0) throw new PurseError("NOT_FOUND");
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
  const updated = await rows(
    db.em(),
    sql<{ id: string }>`update clients set previous_form_token_sealed = form_token_sealed,
        previous_form_token_until = now() + make_interval(secs => ${overlapMs / 1000}),
        form_token_sealed = ${secretBox.seal(token, formTokenBinding(clientId))}
      where client_id = ${clientId} returning id`,
  );
  if (updated.length === 0) throw new PurseError("NOT_FOUND");
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
  const client = await firstRow(
    db.em(),
    sql<{ id: string }>`select id from clients where client_id = ${clientId}`,
  );
  if (!client) throw new PurseError("NOT_FOUND");
  const revoked = await rows(
    db.em(),
    sql<{ token_hash: string }>`update access_tokens set revoked_at = now()
      where client_id = ${client.id} and revoked_at is null and expires_at > now() returning token_hash`,
  );
  await announceRevocation(announceTo, { clientId: toId(client.id) });
  return revoked.length;
}
