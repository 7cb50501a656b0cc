import {
  firstRow,
  firstRowsThenCommit,
  type NamedQuery,
  rows,
  type SqlRunner,
  sendAhead,
  sql,
} from "../persistence/sql.ts";
import { statementNow } from "../persistence/statement-clock.ts";
import { selectWallets, type WalletRow } from "../wallet/wallet-store.ts";
import { raisedEventColumns } from "../webhooks/events/raised-event.ts";
import { chainLinkSql, postingsArraySql, transactionHashSql } from "./ledger-hash.ts";
import type { Leg, Movement } from "./movement.ts";

/**
 * The movement pipeline's SQL (ledger/run-movement.ts): the transaction's first statement
 * (bounds and the prior request, ledger/bound-transaction.ts) and the ledger write
 * (ledger/record-movement.ts). The wallet locks are wallet/wallet-store.ts.
 */

/** The prior request an idempotency key names: its transaction id and fingerprint, if any. */
export interface PriorRequest {
  readonly id: string | null;
  readonly request_hash: string | null;
}

/** Where to look a prior request up: a user's payment_id and Idempotency-Key, or an operator's key. */
export interface PriorKeys {
  readonly userId: number;
  readonly externalId: string | null;
  readonly idempotencyKey: string | null;
  readonly operator: boolean;
}

function boundSettings(boundMs: number) {
  // Whole milliseconds, at least one: zero would mean no bound at all.
  const bound = String(Math.max(1, Math.floor(boundMs)));
  return sql`set_config('lock_timeout', ${bound}, true) as lock_timeout,
    set_config('statement_timeout', ${bound}, true) as statement_timeout`;
}

/**
 * `SET LOCAL` lock_timeout and statement_timeout to `boundMs`, by name (`purse_bounds`). Nothing
 * waits for its answer, so it leaves with the transaction's next statement (`sendAhead`).
 */
export async function setBounds(tx: SqlRunner, boundMs: number): Promise<void> {
  const settings = boundSettings(boundMs);
  await sendAhead(tx, sql`select ${settings}`, "purse_bounds");
}

/**
 * Where a prior request may be recorded. Operator keys live on their ledger rows; a user's
 * payment_id too (unique for good), and the Idempotency-Key in idempotency_keys until it is
 * pruned (migration 0008). The keys are values, or columns of a row they are looked up for.
 */
function priorCandidates(
  keys: { userId: unknown; externalId: unknown; idempotencyKey: unknown },
  operator: boolean,
) {
  return operator
    ? sql`select id, request_hash from transactions
          where operator is not null and idempotency_key = ${keys.idempotencyKey}`
    : sql`select id, request_hash from transactions
          where user_id = ${keys.userId} and external_id = ${keys.externalId}
          union all
          select transaction_id, request_hash from idempotency_keys
          where user_id = ${keys.userId} and key = ${keys.idempotencyKey}`;
}

/** The same bounds, and in the same statement the prior request `keys` name (or a row of nulls). */
export async function setBoundsAndFindPrior(
  tx: SqlRunner,
  boundMs: number,
  keys: PriorKeys,
): Promise<PriorRequest | undefined> {
  const settings = boundSettings(boundMs);
  const operator = keys.operator;
  const candidates = priorCandidates(keys, operator);
  return firstRow(
    tx,
    sql<PriorRequest>`
      select ${settings}, prior.id, prior.request_hash
      from (select 1) as one
      left join lateral (
        select id, request_hash from (${candidates}) as found
        order by id limit 1
      ) as prior on true`,
    operator ? "purse_bounds_operator_key" : "purse_bounds_prior",
  );
}

/** A prior request found for the `n`th keys asked (from 1): its transaction id and fingerprint. */
export type FoundPrior = [n: number, id: string, requestHash: string | null];

/** A row of `setBoundsFindPriorsAndLockWallets`: the priors found beside one locked wallet. */
export type PriorsAndWalletRow = { priors: FoundPrior[] | null } & (
  | WalletRow
  | { [column in keyof WalletRow]: null }
);

/**
 * The bounds, the prior requests each of `keys` names, and the row locks of the wallets `numbers`
 * name (in id order, as `findWalletsByNumber` takes them), in ONE statement (`purse_bounds_wallets`):
 * movements that know their wallets before they start (transfers, alone or in a batch:
 * ledger/movement-batch.ts) need no round trip of their own for them, and a batch's wallets are
 * all locked in one id order, so two batches never wait on each other crosswise.
 *
 * Order matters and is fixed by the plan, not left to chance: the locking scan is gated by a
 * one-time filter on the `bounds` CTE, which PostgreSQL evaluates before the scan reads its first
 * row, so `lock_timeout` is already set when a lock is waited for (tested: a held wallet row ends
 * in SERVICE_BUSY within the bound). `statement_timeout` applies from the next statement on.
 * Every row carries the priors found (null for none); with no wallet found there is one row of nulls.
 */
export async function setBoundsFindPriorsAndLockWallets(
  tx: SqlRunner,
  boundMs: number,
  keys: readonly Omit<PriorKeys, "operator">[],
  numbers: readonly string[],
): Promise<PriorsAndWalletRow[]> {
  const asked = {
    userId: sql.ref("asked.user_id"),
    externalId: sql.ref("asked.external_id"),
    idempotencyKey: sql.ref("asked.key"),
  };
  return rows(
    tx,
    sql<PriorsAndWalletRow>`
      with bounds as materialized (select ${boundSettings(boundMs)}),
      asked as (
        select * from unnest(
          ${keys.map((key) => key.userId)}::bigint[],
          ${keys.map((key) => key.externalId)}::text[],
          ${keys.map((key) => key.idempotencyKey)}::text[]
        ) with ordinality as asked(user_id, external_id, key, n)
      ),
      prior as materialized (
        select asked.n, found.id, found.request_hash
        from asked cross join lateral (
          select id, request_hash from (${priorCandidates(asked, false)}) as candidates
          order by id limit 1
        ) as found
      ),
      locked as materialized (
        ${selectWallets}
        where w.number = any(${[...numbers]}::text[])
          and (select lock_timeout from bounds) is not null
        order by w.id for no key update of w
      )
      select (select json_agg(json_build_array(prior.n, prior.id::text, prior.request_hash)) from prior) as priors,
        locked.*
      from (select 1) as one
      left join locked on true`,
    "purse_bounds_wallets",
  );
}

/** The hash and chain links are computed in the same statement (ledger/ledger-hash.ts). */
const sealedHash = sql.raw(transactionHashSql("draft", postingsArraySql("leg p")));
const walletLink = sql.raw(chainLinkSql("head.chain_head", "tx.hash"));
const walletHead = sql.raw(chainLinkSql("w.chain_head", "tx.hash"));

/** What one ledger write stores besides the movement: its non-zero legs and per-wallet deltas. */
export interface MovementWrite {
  readonly movement: Movement;
  readonly legs: readonly Leg[];
  readonly deltas: readonly (readonly [number, bigint])[];
  /** An operator's key, kept on the ledger row. */
  readonly ledgerKey: string | null;
  /** An API caller's Idempotency-Key, booked in idempotency_keys. */
  readonly apiKey: string | null;
  /** The request the key promises (ledger/bound-transaction.ts, `keyedRequestHash`). */
  readonly apiKeyHash: string | null;
}

/** What a ledger write answers: the transaction's id and time. */
export interface InsertedMovement {
  readonly id: string | number;
  readonly created_at: Date | string;
}

/** The ledger write, in a transaction that goes on after it (a plan's own `recordMovement`). */
export async function insertMovement(
  tx: SqlRunner,
  write: MovementWrite,
): Promise<InsertedMovement | undefined> {
  const { query, prepareAs } = movementInsert(write);
  return firstRow(tx, query, prepareAs);
}

/**
 * The ledger writes of one or more movements as the transaction's last statements, in order, the
 * COMMIT sent right behind them (sql.ts `firstRowsThenCommit`): each sees the wallet balances and
 * chain heads the one before it wrote.
 */
export async function insertMovementsThenCommit(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
): Promise<(InsertedMovement | undefined)[]> {
  return firstRowsThenCommit(tx, writes.map(movementInsert));
}

/**
 * The ledger write, one statement by name (`purse_record_movement`): the transaction, its
 * postings, the wallet balances and chain heads, an API caller's Idempotency-Key and the
 * movement's webhook events (one insert, no round trip of their own).
 */
function movementInsert({
  movement,
  legs,
  deltas,
  ledgerKey,
  apiKey,
  apiKeyHash,
}: MovementWrite): NamedQuery<InsertedMovement> {
  const events = raisedEventColumns(movement.events ?? []);
  return {
    prepareAs: "purse_record_movement",
    query: sql<InsertedMovement>`
      with leg as (
        select leg.account, leg.wallet_id, ${movement.currencyId}::integer as currency_id, leg.amount_minor, leg.n
        from unnest(
          ${legs.map((leg) => leg.account)}::text[],
          ${legs.map((leg) => leg.walletId ?? null)}::bigint[],
          ${legs.map((leg) => leg.amountMinor.toString())}::bigint[]
        ) with ordinality as leg(account, wallet_id, amount_minor, n)
      ), head as (
        select id, chain_head from wallets where id in (select wallet_id from leg)
      ), draft as (
        select nextval(pg_get_serial_sequence('transactions', 'id')) as id,
          ${movement.userId}::bigint as user_id, ${movement.type}::smallint as type,
          ${movement.status}::smallint as status, ${movement.label}::text as label,
          ${movement.walletFromId}::bigint as wallet_from_id, ${movement.walletToId}::bigint as wallet_to_id,
          ${movement.currencyId}::integer as currency_id, ${movement.amountMinor.toString()}::bigint as amount_minor,
          ${movement.commissionMinor.toString()}::bigint as commission_minor,
          ${movement.amountFromMinor.toString()}::bigint as amount_from_minor,
          ${movement.amountToMinor.toString()}::bigint as amount_to_minor,
          ${movement.externalId ?? null}::text as external_id,
          ${ledgerKey}::text as idempotency_key,
          ${movement.description ?? ""}::text as description, ${movement.additional ?? ""}::text as additional,
          ${movement.operator ?? null}::text as operator,
          ${movement.reversesTransactionId ?? null}::bigint as reverses_transaction_id,
          ${movement.refundOf ?? null}::bigint as refund_of,
          ${statementNow} as created_at
      ), tx as (
        insert into transactions (
          id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional,
          operator, reverses_transaction_id, refund_of, created_at, updated_at, hash)
        select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, ${movement.requestHash ?? null}, description, additional,
          operator, reverses_transaction_id, refund_of, created_at, created_at, ${sealedHash}
        from draft
        returning id, created_at, hash
      ), posted as (
        insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at, chain_hash)
        select tx.id, leg.account, leg.wallet_id, leg.currency_id, leg.amount_minor, tx.created_at,
          case when leg.wallet_id is null then null else ${walletLink} end
        from tx cross join leg left join head on head.id = leg.wallet_id
        -- Posting ids follow the movement's legs, whatever join order the plan chose.
        order by leg.n
      ), balances as (
        update wallets w
        set balance_minor = w.balance_minor + delta.amount_minor, chain_head = ${walletHead}, updated_at = now()
        from tx, unnest(
          ${deltas.map(([walletId]) => walletId)}::bigint[],
          ${deltas.map(([, amount]) => amount.toString())}::bigint[]
        ) as delta(wallet_id, amount_minor)
        where w.id = delta.wallet_id
      ), keyed as (
        insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
        select ${movement.userId}::bigint, ${apiKey}::text, tx.id, ${apiKeyHash}::text, tx.created_at
        from tx where ${apiKey}::text is not null
      ), raised as (
        -- The movement's webhook events (none: empty arrays), fanned out to endpoints later.
        insert into events (user_id, type, data, created_at)
        select raised.user_id, raised.type,
          raised.data::jsonb || jsonb_build_object('transaction_id', tx.id), tx.created_at
        from tx cross join unnest(
          ${events.userIds}::bigint[], ${events.types}::text[], ${events.data}::text[]
        ) as raised(user_id, type, data)
      )
      select id, created_at from tx`,
  };
}
