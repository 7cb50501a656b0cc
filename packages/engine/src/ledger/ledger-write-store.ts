import { isDistributed } from "../persistence/citus-routing.ts";
import { PgTransaction } from "../persistence/pg-transaction.ts";
import { type NamedQuery, rows, rowsThenCommit, type SqlRunner, sql, toId } from "../persistence/sql.ts";
import { fannedOutWithoutEndpoints } from "../webhooks/events/event-store.ts";
import { insertMovementsOnCitus } from "./citus-ledger-write-store.ts";
import { chainLinkSql } from "./ledger-hash.ts";
import { type ForeseenWallet, type FoundPrior, foreseenGuardCtes, type PriorKeys } from "./movement-store.ts";
import type { InsertedMovement, MovementWrite } from "./movement-write.ts";
import { sealingCtes } from "./sealing-store.ts";

export type { InsertedMovement, MovementWrite } from "./movement-write.ts";

/**
 * The ledger writes of `writes`, in a transaction that goes on after them (a plan's own
 * `recordMovement`): one statement, one row per write, in order.
 */
export async function insertMovements(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
): Promise<InsertedMovement[]> {
  if (isDistributed(tx)) return insertMovementsOnCitus(tx, writes, false);
  const { query, prepareAs } = movementsInsert(writes, null);
  return ledgerWritten(await rows(tx, query, prepareAs)).movements;
}

/** What a ledger write with its COMMIT answers (`insertMovementsThenCommit`). */
export interface LedgerWritten {
  /** One per write, in order; none when a foreseen batch's guard held it back. */
  readonly movements: InsertedMovement[];
  /** The new version of each wallet row the write changed, by wallet id (none on Citus). */
  readonly walletVersions: Map<number, string>;
  /** A foreseen batch's wallets that were not as it remembered them (so nothing was written). */
  readonly stale: number[];
  /** The prior requests a foreseen batch's members named (so nothing was written). */
  readonly priors: FoundPrior[];
}

/**
 * The same as the transaction's last statement, the COMMIT sent right behind it (sql.ts
 * `rowsThenCommit`): a batch of movements costs one statement and one executor pass, however many
 * members it has (ledger/movement-batch.ts).
 */
export async function insertMovementsThenCommit(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
): Promise<LedgerWritten> {
  if (isDistributed(tx))
    return {
      movements: await insertMovementsOnCitus(tx, writes, true),
      walletVersions: new Map(),
      stale: [],
      priors: [],
    };
  return ledgerWritten(await rowsThenCommit(tx, movementsInsert(writes, null)));
}

/**
 * A batch decided on remembered wallets (ledger/wallet-memory.ts), written in its transaction's
 * ONE statement with the COMMIT behind it: the row locks, the prior-request lookups and the ledger
 * write together, the write gated on the wallets being what the batch decided on and no prior
 * request (ledger/movement-store.ts, `foreseenGuardCtes`). Held back, it writes nothing, commits
 * an empty transaction and answers no movements (and the stale wallets).
 */
export async function insertForeseenMovementsThenCommit(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
  expected: readonly ForeseenWallet[],
  keys: readonly Omit<PriorKeys, "operator">[],
): Promise<LedgerWritten> {
  return ledgerWritten(await rowsThenCommit(tx, movementsInsert(writes, { expected, keys })));
}

/** Whether `tx` can take a foreseen batch: a pipelined transaction on plain PostgreSQL. */
export function takesForeseenBatches(tx: SqlRunner): boolean {
  return tx instanceof PgTransaction && !tx.distributed;
}

/**
 * A row of the ledger write: a movement written, a wallet changed (its new version), or, from a
 * foreseen batch held back, a wallet not as foreseen or a prior request (the `n`th member's, its
 * fingerprint in `version`).
 */
interface LedgerWriteRow {
  readonly row: "movement" | "wallet" | "stale" | "prior";
  readonly id: string | number;
  readonly n: string | number | null;
  readonly created_at: Date | string | null;
  readonly version: string | null;
}

function ledgerWritten(found: readonly LedgerWriteRow[]): LedgerWritten {
  const movements: InsertedMovement[] = [];
  const walletVersions = new Map<number, string>();
  const stale: number[] = [];
  const priors: FoundPrior[] = [];
  for (const row of found) {
    if (row.row === "movement") movements.push({ id: row.id, created_at: row.created_at ?? "" });
    else if (row.row === "wallet") walletVersions.set(toId(row.id), row.version ?? "");
    else if (row.row === "stale") stale.push(toId(row.id));
    else priors.push([toId(row.n ?? 0), String(row.id), row.version]);
  }
  // Ids are drawn in the movements' order (sealing-store.ts): by id is the order asked.
  movements.sort((a, b) => toId(a.id) - toId(b.id));
  return { movements, walletVersions, stale, priors };
}

/** The links of the wallets' chains. */
const firstLink = sql.raw(chainLinkSql("w.chain_head", "sealed.hash"));
const nextLink = sql.raw(chainLinkSql("chain.link", "sealed.hash"));

/**
 * The ledger writes of one or more movements in ONE statement by name (`purse_record_movements`),
 * as if each had run on its own in the order given: the transactions (ids drawn in that order),
 * their postings, the wallet balances and chain heads, API callers' Idempotency-Keys and the
 * movements' webhook events. Every value travels as an array, one element per movement (or per
 * leg, per event), so the statement's text is the same for any number of movements and is parsed
 * and planned once per connection.
 *
 * The chains stay in order: a wallet that several movements of the batch touch gets one link per
 * movement, each from the link before it (the `chain` recursion walks every touched wallet's
 * movements in step: the k-th round computes each wallet's k-th link), and the wallet's head
 * moves to its last link. Its balance moves by the sum of its legs: the caller decided each
 * movement on the balances the ones before it left (ledger/movement-batch.ts), and the check
 * constraint still refuses a final balance below zero. The same statement appends the history's
 * and the wallets' day counter deltas (migration 0021 took them from triggers), folded later.
 */
function movementsInsert(
  writes: readonly MovementWrite[],
  foreseen: { expected: readonly ForeseenWallet[]; keys: readonly Omit<PriorKeys, "operator">[] } | null,
): NamedQuery<LedgerWriteRow> {
  const events = writes.flatMap((write, index) =>
    (write.movement.events ?? []).map((event) => ({ m: index + 1, event })),
  );
  // An operator's key (migration 0025) is booked by its movement. Only a statement that carries
  // one has that part, under a name of its own: a transfer's statement is the one it was.
  const operatorKeys = writes.some((write) => write.ledgerKey !== null && write.movement.operator);
  const operatorKeyed = operatorKeys
    ? sql`, operator_keyed as (
        insert into operator_keys (key, transaction_id, request_hash)
        select idempotency_key, id, request_hash from sealed
        where operator is not null and idempotency_key is not null
      )`
    : sql``;
  const guarded = foreseen
    ? {
        ctes: sql`${foreseenGuardCtes(foreseen.expected, foreseen.keys)},`,
        gate: sql`where (select passed from guard)`,
        heldBack: sql`union all select 'stale', id, null, null, null from held where not current
          union all select 'prior', id, n, null, request_hash from prior`,
      }
    : { ctes: sql``, gate: sql``, heldBack: sql`` };
  const name = operatorKeys ? "operator_movements" : "movements";
  return {
    prepareAs: foreseen ? `purse_record_foreseen_${name}` : `purse_record_${name}`,
    query: sql<LedgerWriteRow>`
      with recursive ${guarded.ctes} ${sealingCtes(writes, true, guarded.gate)}, tx as (
        insert into transactions (
          id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional,
          operator, reverses_transaction_id, refund_of, created_at, updated_at, hash)
        select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional,
          operator, reverses_transaction_id, refund_of, created_at, created_at, hash
        from sealed order by m
        returning id, created_at
      ), touched as (
        -- Each wallet's movements in this batch, in order: the k-th is its k-th link here.
        select wallet_id, m, row_number() over (partition by wallet_id order by m) as k
        from (select distinct wallet_id, m from leg where wallet_id is not null) as pairs
      ), chain (wallet_id, m, k, link) as (
        select touched.wallet_id, touched.m, touched.k, ${firstLink}
        from touched join wallets w on w.id = touched.wallet_id join sealed on sealed.m = touched.m
        where touched.k = 1
        union all
        select touched.wallet_id, touched.m, touched.k, ${nextLink}
        from chain join touched on touched.wallet_id = chain.wallet_id and touched.k = chain.k + 1
        join sealed on sealed.m = touched.m
      ), posted as (
        insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at, chain_hash,
          user_id)
        select sealed.id, leg.account, leg.wallet_id, leg.currency_id, leg.amount_minor, sealed.created_at, chain.link,
          leg.user_id
        from leg join sealed on sealed.m = leg.m
        left join chain on chain.wallet_id = leg.wallet_id and chain.m = leg.m
        -- Posting ids follow the movements and their legs, whatever join order the plan chose.
        order by leg.m, leg.n
      ), balances as (
        update wallets w
        set balance_minor = w.balance_minor + moved.amount_minor, chain_head = last.link, updated_at = now()
        from (
          select wallet_id, sum(amount_minor)::bigint as amount_minor from leg
          where wallet_id is not null group by wallet_id
        ) as moved
        join (select distinct on (wallet_id) wallet_id, link from chain order by wallet_id, k desc) as last
          on last.wallet_id = moved.wallet_id
        where w.id = moved.wallet_id
        returning w.id, w.xmin::text as version
      ), keyed as (
        insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
        select user_id, api_key, id, api_key_hash, created_at from sealed where api_key is not null
      )${operatorKeyed}, counted as (
        -- The history's counter deltas (migration 0021: no trigger does it): each transaction on
        -- its sending wallet, and on its receiving wallet unless that is the same one, \`internal\`
        -- when the two have one owner, each side under its wallet's owner.
        insert into history_count_deltas
          (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor, user_id)
        select side.wallet_id, (sealed.created_at at time zone 'UTC')::date, sealed.currency_id, sealed.type,
          sealed.status, side.internal, count(*), sum(sealed.amount_minor), sum(sealed.commission_minor),
          side.user_id
        from sealed
        left join wallets wf on wf.id = sealed.wallet_from_id
        left join wallets wt on wt.id = sealed.wallet_to_id
        cross join lateral (values
          (sealed.wallet_from_id, wf.user_id, false),
          (case when sealed.wallet_to_id is distinct from sealed.wallet_from_id then sealed.wallet_to_id end,
           wt.user_id, coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, user_id, internal)
        where side.wallet_id is not null
        group by 1, 2, 3, 4, 5, 6, 10
      ), netted as (
        -- The wallets' day deltas: each wallet's net of its postings in this statement.
        insert into wallet_day_deltas (wallet_id, day, net_minor, user_id)
        select leg.wallet_id, (sealed.created_at at time zone 'UTC')::date, sum(leg.amount_minor), leg.user_id
        from leg join sealed on sealed.m = leg.m
        where leg.wallet_id is not null
        group by 1, 2, 4
        having sum(leg.amount_minor) <> 0
      ), raised as (
        -- The movements' webhook events (none: empty arrays), fanned out to endpoints later; an
        -- owner's with no endpoint already fanned out. Their data travel as one JSON array: as
        -- elements of a text array, every quote of every payload would be escaped.
        insert into events (user_id, type, data, created_at, fanned_out)
        select raised.user_id, raised.type,
          raised.data || jsonb_build_object('transaction_id', sealed.id), sealed.created_at,
          ${fannedOutWithoutEndpoints}
        from rows from (
          unnest(${events.map(({ m }) => m)}::integer[]), unnest(${events.map(({ event }) => event.userId)}::bigint[]),
          unnest(${events.map(({ event }) => event.type)}::text[]),
          jsonb_array_elements(${JSON.stringify(events.map(({ event }) => event.data))}::jsonb)
        ) with ordinality as raised(m, user_id, type, data, n)
        join sealed on sealed.m = raised.m
        order by raised.m, raised.n
      )
      select 'movement' as row, id, null::bigint as n, created_at, null as version from tx
      union all select 'wallet', id, null, null, version from balances
      ${guarded.heldBack}`,
  };
}
