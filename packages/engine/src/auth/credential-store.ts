import type { SqlEntityManager } from "@mikro-orm/sql";
import { isDistributed } from "../persistence/citus-routing.ts";
import {
  firstRow,
  firstRowsThenCommit,
  rows,
  type SqlRunner,
  sendAhead,
  sql,
  toId,
} from "../persistence/sql.ts";
import type { Role } from "./actor.ts";

/** API clients' credentials and the access tokens issued to them. */

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

/** Stores an access token by its hash (a dashboard session: no client). */
export async function insertAccessToken(
  em: SqlEntityManager,
  token: { tokenHash: string; clientId: number | null; userId: number; scope: string; expiresAt: Date },
): Promise<void> {
  await sql`insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
    values (${token.tokenHash}, ${token.clientId}, ${token.userId}, ${token.scope}, ${token.expiresAt})`.execute(
    em.getKysely(),
  );
}

/** A client's new access token, as stored (its SHA-256, never the token). */
export interface NewClientToken {
  readonly tokenHash: string;
  readonly clientId: number;
  readonly userId: number;
  readonly scope: string;
  readonly expiresAt: Date;
}

/**
 * The whole of a client token's issuing transaction, which commits it: the client's row locked
 * (`no key update`: inserts that merely refer to the client do not wait), so issuances of one
 * client, from any process, take turns; then, in a statement of its own whose snapshot holds every
 * issuance that went before, `token` stored and the client's live tokens of its scope beyond the
 * `keep` newest deleted (oldest first out), with the COMMIT right behind. Answers the deleted
 * hashes. On a PgTransaction one round trip: BEGIN, the lock, the write and the COMMIT leave
 * together, so the lock is held only while PostgreSQL writes and commits, never across a turn of
 * this process's event loop (statements run in order, so the write's snapshot still comes after
 * the lock); the COMMIT does not wait for the WAL's flush (`synchronous_commit = off`), so one
 * client's issuances are not held to one disk sync each. Tokens of another scope (an
 * operator's, issued through the client) are not counted. Deleted, not marked revoked: a token
 * pushed out by the bound is dead, and its row would only wait for the prune, so the table stays
 * bounded too. The client's tokens are its user's: named by that user too, the write reads and
 * writes one shard on Citus.
 */
export async function insertTokenPushingOutAndCommit(
  tx: SqlRunner,
  token: NewClientToken,
  keep: number,
): Promise<string[]> {
  // A token is no money: should the last moment's tokens be lost with a crash, their clients get
  // 401 and ask again. Not waiting for the WAL's flush keeps the lock for a write, not a disk's sync.
  await sendAhead(tx, sql`set local synchronous_commit = off`);
  await sendAhead(
    tx,
    sql`select 1 from clients where id = ${token.clientId} for no key update`,
    "purse_token_lock",
  );
  const [written] = await firstRowsThenCommit(tx, [
    {
      query: sql<{ pushed_out: string[] }>`with pushed as (
          delete from access_tokens where user_id = ${token.userId} and token_hash in (
            select token_hash from access_tokens
            where user_id = ${token.userId} and client_id = ${token.clientId} and scope = ${token.scope}
              and revoked_at is null and expires_at > now()
            order by created_at desc, token_hash desc
            offset ${keep})
          returning token_hash),
        added as (
          insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
          values (${token.tokenHash}, ${token.clientId}, ${token.userId}, ${token.scope}, ${token.expiresAt}))
        select coalesce(array_agg(token_hash), '{}') as pushed_out from pushed`,
      prepareAs: "purse_token_insert",
    },
  ]);
  return written?.pushed_out ?? [];
}

/** Revokes one token by its hash (and the owner it carries, if any), unless it was revoked already. */
export async function revokeTokenByHash(
  em: SqlEntityManager,
  tokenHash: string,
  ownerId: number | undefined,
): Promise<void> {
  const owned = ownerId === undefined ? sql`` : sql`and user_id = ${ownerId}`;
  await sql`update access_tokens set revoked_at = now()
    where token_hash = ${tokenHash} ${owned} and revoked_at is null`.execute(em.getKysely());
}

/**
 * Revokes every live token of a client; returns how many there were. A client's tokens are its
 * user's (each is issued with the client's user), so on Citus the user is named too and the update
 * reads that owner's shard of `access_tokens` alone; elsewhere the statement is as it was.
 */
export async function revokeLiveTokensOfClient(
  em: SqlEntityManager,
  client: { readonly id: number; readonly userId: number },
): Promise<number> {
  const ofOwner = isDistributed(em) ? sql`and user_id = ${client.userId}` : sql``;
  const revoked = await rows(
    em,
    sql<{ token_hash: string }>`update access_tokens set revoked_at = now()
      where client_id = ${client.id} ${ofOwner} and revoked_at is null and expires_at > now()
      returning token_hash`,
  );
  return revoked.length;
}

/** A client's internal id and its user's, by its public id (`clients` is a reference table on Citus). */
export async function findClientIds(
  em: SqlEntityManager,
  clientId: string,
): Promise<{ id: number; userId: number } | undefined> {
  const client = await firstRow(
    em,
    sql<{ id: string; user_id: string }>`select id, user_id from clients where client_id = ${clientId}`,
  );
  return client === undefined ? undefined : { id: toId(client.id), userId: toId(client.user_id) };
}

/** Each rotating client credential: its column, the previous value's column and the overlap's end. */
const rotatingColumns = {
  secret: { current: "secret_hash", previous: "previous_secret_hash", until: "previous_secret_until" },
  formToken: {
    current: "form_token_sealed",
    previous: "previous_form_token_sealed",
    until: "previous_form_token_until",
  },
  webhookSecret: {
    current: "webhook_secret_sealed",
    previous: "previous_webhook_secret_sealed",
    until: "previous_webhook_secret_until",
  },
} as const;

/**
 * Stores a client's new credential (a secret hash, or a sealed form token or webhook secret),
 * keeping the current one as the previous until `overlapMs` from now; false when no client has
 * that id.
 */
export async function replaceClientCredential(
  em: SqlEntityManager,
  clientId: string,
  credential: keyof typeof rotatingColumns,
  stored: string,
  overlapMs: number,
): Promise<boolean> {
  const column = rotatingColumns[credential];
  const updated = await rows(
    em,
    sql<{ id: string }>`update clients set ${sql.ref(column.previous)} = ${sql.ref(column.current)},
        ${sql.ref(column.until)} = now() + make_interval(secs => ${overlapMs / 1000}),
        ${sql.ref(column.current)} = ${stored}
      where client_id = ${clientId} returning id`,
  );
  return updated.length > 0;
}

/**
 * A live access token's owner, by its SHA-256 (authenticate.ts), by name (`purse_token`); with
 * `ownerId`, the id the token carries (secrets/opaque-token.ts), by that owner too (`purse_token_owned`),
 * which Citus routes to the owner's shard instead of reading every shard.
 */
export async function findLiveToken(
  em: SqlRunner,
  tokenHash: string,
  now: Date,
  ownerId: number | undefined,
): Promise<
  | { user_id: string; client_id: string | null; scope: string; role: Role; expires_at: Date | string }
  | undefined
> {
  const owned = ownerId === undefined ? sql`` : sql`and t.user_id = ${ownerId}`;
  return firstRow(
    em,
    sql<{ user_id: string; client_id: string | null; scope: string; role: Role; expires_at: Date | string }>`
      select t.user_id, t.client_id, t.scope, u.role, t.expires_at
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${tokenHash} ${owned} and t.revoked_at is null and t.expires_at > ${now}`,
    ownerId === undefined ? "purse_token" : "purse_token_owned",
  );
}
