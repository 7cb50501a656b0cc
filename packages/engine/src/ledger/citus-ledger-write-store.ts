import { createHash } from "node:crypto";
import { type RoutedQuery, rowsEach } from "../persistence/citus-routing.ts";
import { type HeldWallet, PgTransaction } from "../persistence/pg-transaction.ts";
import { rows, type SqlRunner, sql, statement, toId } from "../persistence/sql.ts";
import { lockOwnedWallets } from "../wallet/wallet-store.ts";
import { raisedEventColumns } from "../webhooks/events/raised-event.ts";
import type { InsertedMovement, MovementWrite } from "./movement-write.ts";
import { sealingCtes } from "./sealing-store.ts";

/** What the sealing statement answers per movement. */
interface SealedRow {
  readonly m: string | number;
  readonly id: string | number;
  readonly created_at: Date | string;
  /** The same time as text, so that it goes back into the rows to the microsecond. */
  readonly at: string;
  readonly hash: Buffer;
}

/**
 * The ledger write of `writes` on a database distributed by owner (Citus,
 * persistence/citus-routing.ts), where the one-statement form cannot run: Citus routes a statement
 * to one worker only when it names one owner, and refuses the chain's recursion over several
 * owners' shards. The same rows, in two round trips:
 *
 * 1. The sealing statement: the one-statement form's first CTEs (ledger-write-store.ts,
 *    `sealingCtes`), which read no table: the ids drawn in order from the coordinator's sequence,
 *    the time and each movement's hash, computed by the same SQL, so a hash is what plain
 *    PostgreSQL would have sealed.
 * 2. Per movement, in order, one single-row statement per row, each naming its owner: the
 *    transaction (the acting user's), each wallet's balance and chain head and its postings (the
 *    wallet's owner's), the system accounts' postings, the Idempotency-Key, the history's and the
 *    wallets' day deltas (each wallet's owner's) and the events. They all leave at once, with the
 *    COMMIT behind them when `thenCommit`.
 *
 * A wallet's next link is `sha256(head || hash)` (ledger-hash.ts, `chainLinkSql`), computed here from
 * the head its row lock read (wallet/wallet-store.ts, `lockOwnedWallets`), which the transaction
 * remembers as its movements move it; a wallet the transaction has not locked that way is locked
 * now, its owner found first. `purse audit` checks every link and hash against the rows.
 */
export async function insertMovementsOnCitus(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
  thenCommit: boolean,
): Promise<InsertedMovement[]> {
  const sealed = await rows(
    tx,
    sql<SealedRow>`with ${sealingCtes(writes, false)}
      select m, id, created_at, created_at::text as at, hash from sealed order by m`,
    "purse_seal_movements",
  );
  const held = await holdWallets(tx, writes);
  const statements = writes.flatMap((write, index) => {
    const row = sealed[index];
    if (!row) throw new Error("the sealing statement returned no row");
    return movementStatements(write, row, held);
  });
  if (thenCommit && tx instanceof PgTransaction) {
    await tx.rowsEachThenCommit(statements.map(({ query, prepareAs }) => statement(query, prepareAs)));
  } else {
    await rowsEach(tx, statements);
  }
  return sealed.map((row) => ({ id: row.id, created_at: row.created_at }));
}

/** The wallets the movements touch, with owners and chain heads: those held, the others locked now. */
async function holdWallets(
  tx: SqlRunner,
  writes: readonly MovementWrite[],
): Promise<Map<number, HeldWallet>> {
  const held = tx instanceof PgTransaction ? tx.heldWallets : new Map<number, HeldWallet>();
  const touched = new Set<number>();
  for (const { movement, legs } of writes) {
    for (const id of [movement.walletFromId, movement.walletToId]) if (id !== null) touched.add(id);
    for (const leg of legs) if (leg.walletId !== undefined) touched.add(leg.walletId);
  }
  const missing = [...touched].filter((id) => !held.has(id));
  if (missing.length === 0) return held;
  const owners = await rows(
    tx,
    sql<{ id: string | number; user_id: string | number }>`
      select id, user_id from wallets where id = any(${missing}::bigint[])`,
    "purse_wallet_owners_by_id",
  );
  const locked = await lockOwnedWallets(
    tx,
    owners.map((owner) => ({ id: toId(owner.id), userId: toId(owner.user_id) })),
  );
  for (const row of locked) held.set(toId(row.id), { userId: toId(row.user_id), chainHead: row.chain_head });
  return held;
}

function ownerOf(held: ReadonlyMap<number, HeldWallet>, walletId: number): HeldWallet {
  const wallet = held.get(walletId);
  if (!wallet) throw new Error(`wallet ${walletId} is not held by the transaction`);
  return wallet;
}

/** One movement's single-row statements, in order (see `insertMovementsOnCitus`). */
function movementStatements(
  { movement: mv, legs, ledgerKey, apiKey, apiKeyHash }: MovementWrite,
  sealed: SealedRow,
  held: Map<number, HeldWallet>,
): RoutedQuery<unknown>[] {
  const id = String(sealed.id);
  const at = sealed.at;
  const day = sql`((${at}::timestamptz) at time zone 'UTC')::date`;
  const statements: RoutedQuery<unknown>[] = [
    {
      prepareAs: "purse_citus_transaction",
      query: sql`insert into transactions (
          id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional,
          operator, reverses_transaction_id, refund_of, created_at, updated_at, hash)
        values (${id}::bigint, ${mv.userId}::bigint, ${mv.type}::smallint, ${mv.status}::smallint, ${mv.label},
          ${mv.walletFromId}::bigint, ${mv.walletToId}::bigint, ${mv.currencyId}::integer,
          ${mv.amountMinor.toString()}::bigint, ${mv.commissionMinor.toString()}::bigint,
          ${mv.amountFromMinor.toString()}::bigint, ${mv.amountToMinor.toString()}::bigint,
          ${mv.externalId ?? null}::text, ${ledgerKey}::text, ${mv.requestHash ?? null}::text,
          ${mv.description ?? ""}, ${mv.additional ?? ""}, ${mv.operator ?? null}::text,
          ${mv.reversesTransactionId ?? null}::bigint, ${mv.refundOf ?? null}::bigint,
          ${at}::timestamptz, ${at}::timestamptz, ${sealed.hash}::bytea)`,
    },
  ];
  // Each wallet's link for this movement, and its net: one chain step per wallet per movement.
  const links = new Map<number, Buffer>();
  const nets = new Map<number, bigint>();
  for (const leg of legs) {
    if (leg.walletId === undefined) continue;
    const wallet = ownerOf(held, leg.walletId);
    if (!links.has(leg.walletId)) {
      wallet.chainHead = createHash("sha256").update(wallet.chainHead).update(sealed.hash).digest();
      links.set(leg.walletId, wallet.chainHead);
    }
    nets.set(leg.walletId, (nets.get(leg.walletId) ?? 0n) + leg.amountMinor);
  }
  for (const leg of legs) {
    const walletId = leg.walletId ?? null;
    const userId = walletId === null ? mv.userId : ownerOf(held, walletId).userId;
    statements.push({
      prepareAs: "purse_citus_posting",
      query: sql`insert into postings
          (transaction_id, account, wallet_id, currency_id, amount_minor, created_at, chain_hash, user_id)
        values (${id}::bigint, ${leg.account}, ${walletId}::bigint, ${mv.currencyId}::integer,
          ${leg.amountMinor.toString()}::bigint, ${at}::timestamptz,
          ${walletId === null ? null : (links.get(walletId) ?? null)}::bytea, ${userId}::bigint)`,
    });
  }
  for (const [walletId, net] of nets) {
    const { userId } = ownerOf(held, walletId);
    statements.push({
      prepareAs: "purse_citus_wallet_move",
      query: sql`update wallets
        set balance_minor = balance_minor + ${net.toString()}::bigint, chain_head = ${links.get(walletId)}::bytea,
          updated_at = now()
        where user_id = ${userId}::bigint and id = ${walletId}::bigint`,
    });
    if (net !== 0n)
      statements.push({
        prepareAs: "purse_citus_wallet_day",
        query: sql`insert into wallet_day_deltas (wallet_id, day, net_minor, user_id)
          values (${walletId}::bigint, ${day}, ${net.toString()}::numeric, ${userId}::bigint)`,
      });
  }
  if (ledgerKey !== null && mv.operator)
    statements.push({
      prepareAs: "purse_citus_operator_key",
      query: sql`insert into operator_keys (key, transaction_id, request_hash)
        values (${ledgerKey}, ${id}::bigint, ${mv.requestHash ?? null}::text)`,
    });
  if (apiKey !== null)
    statements.push({
      prepareAs: "purse_citus_key",
      query: sql`insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
        values (${mv.userId}::bigint, ${apiKey}, ${id}::bigint, ${apiKeyHash}::text, ${at}::timestamptz)`,
    });
  // The history's counter deltas: on the sending wallet, and on the receiving one unless the same,
  // `internal` when both have one owner (as the one-statement form counts them).
  const from = mv.walletFromId === null ? null : ownerOf(held, mv.walletFromId).userId;
  const to = mv.walletToId === null ? null : ownerOf(held, mv.walletToId).userId;
  const sides: [number, number, boolean][] = [];
  if (mv.walletFromId !== null && from !== null) sides.push([mv.walletFromId, from, false]);
  if (mv.walletToId !== null && to !== null && mv.walletToId !== mv.walletFromId)
    sides.push([mv.walletToId, to, from !== null && from === to]);
  for (const [walletId, userId, internal] of sides)
    statements.push({
      prepareAs: "purse_citus_history_count",
      query: sql`insert into history_count_deltas
          (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor, user_id)
        values (${walletId}::bigint, ${day}, ${mv.currencyId}::integer, ${mv.type}::smallint, ${mv.status}::smallint,
          ${internal}, 1, ${mv.amountMinor.toString()}::numeric, ${mv.commissionMinor.toString()}::numeric,
          ${userId}::bigint)`,
    });
  const raised = raisedEventColumns(mv.events ?? []);
  for (const [n, type] of raised.types.entries())
    statements.push({
      prepareAs: "purse_citus_event",
      query: sql`insert into events (user_id, type, data, created_at)
        values (${raised.userIds[n]}::bigint, ${type},
          ${raised.data[n]}::jsonb || jsonb_build_object('transaction_id', ${id}::bigint), ${at}::timestamptz)`,
    });
  return statements;
}
