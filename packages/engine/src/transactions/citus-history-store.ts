import type { RawBuilder } from "kysely";
import { rowsEach } from "../persistence/citus-routing.ts";
import { rows, type SqlRunner, sql } from "../persistence/sql.ts";
import type { HistoryRead } from "./history-reads.ts";
import { rowConditions } from "./matched-transactions-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * On Citus (persistence/citus-routing.ts), the rows a history page, a search or an export page of
 * one user reads, found first by bounded reads: the statements of history-store.ts and
 * transaction-search-store.ts then run unchanged over them, as materialized CTEs named as the
 * tables (`overScope`). Citus cannot run those statements on the distributed tables: a transaction
 * lives on its acting user's shard, so a user's received payments are on their senders' shards,
 * and they read both sides by wallet, with per-wallet `limit`s in lateral joins that Citus does
 * not push down.
 *
 * No temporary table, so a hot standby of the cluster serves them too (docs/sharding.md, "What is
 * left"); and what is read is bounded by the statements' own limits (history-reads.ts), not by the
 * history's size: per scanned wallet and side one statement over every shard, `order by created_at
 * desc, id desc limit n`, which Citus sends to each shard with its limit (each reads at most n
 * entries of its `transactions_wallet_…_time_idx`) and merges: O(shards × n) rows.
 */
export interface CitusHistoryScope {
  /**
   * The rows found, whole, as one JSON array (`row_to_json` text, so no figure passes through a
   * JavaScript number), made rows again in each statement: looking them up again by id would read
   * every shard, and PostgreSQL scans a shard whole for a few thousand ids once it is small enough.
   */
  readonly transactions: string;
  readonly transactionIds: readonly string[];
  /** The caller's wallets, the one its filter names, and every wallet the transactions name. */
  readonly walletIds: readonly string[];
  /** The caller's own wallets, whose counters the counted totals read (history-count-store.ts). */
  readonly ownWalletIds: readonly string[];
  /** The counters' days read, `[from, until)` (null: unbounded): the filter's months, whole. */
  readonly countsFrom: string | null;
  readonly countsUntil: string | null;
}

interface FoundRow {
  id: string;
  row: string;
  wallet_from_id: string | null;
  wallet_to_id: string | null;
}

/** Reads the rows `reads` need of `userId`'s history under `filter` (its wallet and period). */
export async function readCitusHistoryScope(
  tx: SqlRunner,
  userId: number,
  filter: TransactionFilter,
  reads: readonly HistoryRead[],
): Promise<CitusHistoryScope> {
  const wallets = await rows(
    tx,
    sql<{ id: string; user_id: string; number: string }>`select id::text, user_id::text, number from wallets
      where user_id = ${userId}::bigint or number = ${filter.walletNumber}::text`,
  );
  const owned = wallets.filter((wallet) => wallet.user_id === String(userId)).map((wallet) => wallet.id);
  // As scannedWallets (matched-transactions-store.ts): the caller's wallets, or the one asked.
  const scanned =
    filter.walletNumber === null
      ? owned.map((id) => ({ id, own: true }))
      : wallets
          .filter((wallet) => wallet.number === filter.walletNumber)
          .map((wallet) => ({ id: wallet.id, own: wallet.user_id === String(userId) }));
  const counted = scanned.every((wallet) => wallet.own);
  const cursors = await cursorsOf(tx, reads);
  const statements = reads
    .filter((read) => !(read.unlessCounted && counted))
    // A cursor no transaction has: nothing follows it (as in `matched`), nothing to read.
    .filter((read) => read.afterId === null || cursors.has(String(read.afterId)))
    .flatMap((read) =>
      scanned.flatMap((wallet) =>
        (["from", "to"] as const).map((side) => ({
          query: walletSide(side, wallet, owned, read, cursors.get(String(read.afterId)) ?? null),
        })),
      ),
    );
  const found = statements.length === 0 ? [] : (await rowsEach(tx, statements)).flat();
  const transactions = new Map<string, string>();
  for (const row of found) transactions.set(row.id, row.row);
  for (const [id, cursor] of cursors) transactions.set(id, cursor.row);
  const named = new Set([...owned, ...scanned.map((wallet) => wallet.id)]);
  for (const row of found) {
    if (row.wallet_from_id !== null) named.add(row.wallet_from_id);
    if (row.wallet_to_id !== null) named.add(row.wallet_to_id);
  }
  return {
    transactions: `[${[...transactions.values()].join(",")}]`,
    transactionIds: [...transactions.keys()],
    walletIds: [...named],
    ownWalletIds: owned,
    ...countsPeriod(filter),
  };
}

/** Each cursor's transaction: its instant (as text, to the microsecond) and its row. */
async function cursorsOf(
  tx: SqlRunner,
  reads: readonly HistoryRead[],
): Promise<Map<string, { created_at: string; row: string }>> {
  const ids = [...new Set(reads.flatMap((read) => (read.afterId === null ? [] : [String(read.afterId)])))];
  if (ids.length === 0) return new Map();
  const found = await rows(
    tx,
    sql<{ id: string; created_at: string; row: string }>`select t.id::text, t.created_at::text,
        row_to_json(t)::text as row
      from transactions t where t.id = any(${ids}::bigint[])`,
  );
  return new Map(found.map((row) => [row.id, row]));
}

/**
 * One read for one scanned wallet and side: the conditions `matched` puts on that side's rows
 * (matched-transactions-store.ts), newest first, under the read's limit. Unnamed: Citus plans it
 * with its values, its limit included, which it sends to every shard.
 */
function walletSide(
  side: "from" | "to",
  wallet: { readonly id: string; readonly own: boolean },
  owned: readonly string[],
  read: HistoryRead,
  cursor: { readonly created_at: string } | null,
) {
  const column = sql.raw(side === "from" ? "wallet_from_id" : "wallet_to_id");
  const other = sql.raw(side === "from" ? "wallet_to_id" : "wallet_from_id");
  const cursorTime = cursor?.created_at ?? null;
  return sql<FoundRow>`select t.id::text, row_to_json(t)::text as row, t.wallet_from_id::text, t.wallet_to_id::text
    from transactions t
    where t.${column} = ${wallet.id}::bigint and (${wallet.own}::boolean or t.${other} = any(${owned}::bigint[]))
      and ${rowConditions(read.filter)}
      and (${cursorTime}::timestamptz is null
        or (t.created_at, t.id) < (${cursorTime}::timestamptz, ${read.afterId}::bigint))
    order by t.created_at desc, t.id desc
    limit ${read.limit}::bigint`;
}

const dayMs = 86_400_000;

/**
 * The counters' rows the counted totals and the export's days can read: from the first day of
 * the month `from` falls in to the end of the month after the day after `until` (wholeMonths and
 * splitPeriod in history-count-store.ts never reach past those).
 */
function countsPeriod(filter: TransactionFilter): { countsFrom: string | null; countsUntil: string | null } {
  const monthOf = (date: Date, months: number) =>
    new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
  return {
    countsFrom: filter.from === null ? null : monthOf(filter.from, 0),
    countsUntil: filter.until === null ? null : monthOf(new Date(filter.until.getTime() + dayMs), 1),
  };
}

/** The scope's rows as materialized CTEs named as the tables they come from (Citus only). */
function scopeTables(scope: CitusHistoryScope) {
  const ids = sql`${scope.transactionIds}::bigint[]`;
  const from = sql`coalesce(${scope.countsFrom}::date, '-infinity')`;
  const until = sql`coalesce(${scope.countsUntil}::date, 'infinity')`;
  return sql`transactions as materialized (
      select * from jsonb_populate_recordset(null::transactions, ${scope.transactions}::jsonb)),
    wallets as materialized (select * from wallets where id = any(${scope.walletIds}::bigint[])),
    vouchers as materialized (select * from vouchers where activation_transaction_id = any(${ids})),
    history_counts_exact as materialized (select * from history_counts_exact
      where wallet_id = any(${scope.ownWalletIds}::bigint[]) and day >= ${from} and day < ${until}),
    history_month_counts_exact as materialized (select * from history_month_counts_exact
      where wallet_id = any(${scope.ownWalletIds}::bigint[]) and month >= ${from} and month < ${until})`;
}

/** `query` over the scope's rows on Citus; `query` itself elsewhere (`scope` null). */
export function overScope<Row>(scope: CitusHistoryScope | null, query: RawBuilder<Row>): RawBuilder<Row> {
  return scope === null ? query : sql<Row>`with ${scopeTables(scope)} ${query}`;
}

/** The `with` of a statement that has CTEs of its own: the scope's in front of them on Citus. */
export function withScope(scope: CitusHistoryScope | null) {
  return scope === null ? sql`with` : sql`with ${scopeTables(scope)},`;
}

/** A statement's prepared name: another text over the scope, so another name. */
export function scopedName(scope: CitusHistoryScope | null, name: string): string {
  return scope === null ? name : `${name}_citus`;
}
