import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql, toId } from "../persistence/sql.ts";

/** API clients' credentials and the access tokens issued to them (token lookup: authenticate.ts). */

/** A client's ids and secret hashes; the previous hash only while its rotation's overlap lasts. */
export interface ClientCredentials {
  readonly id: number;
  readonly userId: number;
  readonly secretHash: string;
  readonly previousSecretHash: string | null;
}

export async function findClientCredentials(
  em: SqlEntityManager,
  clientId: string,
): Promise<ClientCredentials | undefined> {
  const client = await firstRow(
    em,
    sql<{ id: string; user_id: string; secret_hash: string; previous_secret_hash: string | null }>`
      select id, user_id, secret_hash,
        case when previous_secret_until > now() then previous_secret_hash end as previous_secret_hash
      from clients where client_id = ${clientId}`,
  );
  return client === undefined
    ? undefined
    : {
        id: toId(client.id),
        userId: toId(client.user_id),
        secretHash: client.secret_hash,
        previousSecretHash: client.previous_secret_hash,
      };
}

/** Stores an access token by its hash. */
export async function insertAccessToken(
  em: SqlEntityManager,
  token: { tokenHash: string; clientId: number; userId: number; scope: string; expiresAt: Date },
): Promise<void> {
  await sql`insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
    values (${token.tokenHash}, ${token.clientId}, ${token.userId}, ${token.scope}, ${token.expiresAt})`.execute(
    em.getKysely(),
  );
}

/** Revokes one token by its hash, unless it was revoked already. */
export async function revokeTokenByHash(em: SqlEntityManager, tokenHash: string): Promise<void> {
  await sql`update access_tokens set revoked_at = now()
    where token_hash = ${tokenHash} and revoked_at is null`.execute(em.getKysely());
}

/** Revokes every live token of a client; returns how many there were. */
export async function revokeLiveTokensOfClient(em: SqlEntityManager, id: number): Promise<number> {
  const revoked = await rows(
    em,
    sql<{ token_hash: string }>`update access_tokens set revoked_at = now()
      where client_id = ${id} and revoked_at is null and expires_at > now() returning token_hash`,
  );
  return revoked.length;
}

/** A client's internal id by its public one. */
export async function findClientId(em: SqlEntityManager, clientId: string): Promise<number | undefined> {
  const client = await firstRow(
    em,
    sql<{ id: string }>`select id from clients where client_id = ${clientId}`,
  );
  return client === undefined ? undefined : toId(client.id);
}

/**
 * Stores a client's new secret hash, keeping the current one as the previous until `overlapMs`
 * from now; false when no client has that id.
 */
export async function replaceClientSecret(
  em: SqlEntityManager,
  clientId: string,
  secretHash: string,
  overlapMs: number,
): Promise<boolean> {
  const updated = await rows(
    em,
    sql<{ id: string }>`update clients set previous_secret_hash = secret_hash,
        previous_secret_until = now() + make_interval(secs => ${overlapMs / 1000}),
        secret_hash = ${secretHash}
      where client_id = ${clientId} returning id`,
  );
  return updated.length > 0;
}

/** The same for the sealed form token. */
export async function replaceFormToken(
  em: SqlEntityManager,
  clientId: string,
  formTokenSealed: string,
  overlapMs: number,
): Promise<boolean> {
  const updated = await rows(
    em,
    sql<{ id: string }>`update clients set previous_form_token_sealed = form_token_sealed,
        previous_form_token_until = now() + make_interval(secs => ${overlapMs / 1000}),
        form_token_sealed = ${formTokenSealed}
      where client_id = ${clientId} returning id`,
  );
  return updated.length > 0;
}
