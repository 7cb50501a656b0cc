import { rows, type SqlRunner, sql } from "../persistence/sql.ts";

/**
 * On Citus (persistence/citus-routing.ts), the rows a history page of `userId` can read, copied
 * into temporary tables of the same names, dropped at its snapshot's end: a session finds its
 * temporary tables first, so the history's statements (history-store.ts) then run unchanged, on
 * the coordinator alone, over the user's rows only. Citus cannot run them on the distributed tables:
 * a transaction lives on its acting user's shard, so a user's received payments are on their
 * senders' shards, and the history reads both sides by wallet, with per-wallet `limit`s in
 * lateral joins that Citus does not push down.
 *
 * Copied: the transactions from or to one of the user's wallets, the wallets they name (the
 * user's and the counterparties', for their numbers), the vouchers they activated, and the
 * day's and month's counts of those wallets. One statement each; the whole copy costs about what
 * reading the user's history once does, plus the temporary tables' catalogue entries.
 */
export async function copyHistoryOnCitus(
  tx: SqlRunner,
  userId: number,
  walletNumber: string | null,
): Promise<void> {
  const [owned] = await rows(
    tx,
    sql<{ ids: string[] | null }>`select array_agg(id)::text[] as ids from wallets
      where user_id = ${userId}::bigint or number = ${walletNumber}::text`,
  );
  const mine = owned?.ids ?? [];
  await rows(
    tx,
    sql`create temporary table transactions on commit drop as
      select t.* from transactions t
      where t.wallet_from_id = any(${mine}::bigint[]) or t.wallet_to_id = any(${mine}::bigint[])`,
  );
  const [named] = await rows(
    tx,
    sql<{ wallets: string[] | null; transactions: string[] | null }>`select
      (select array_agg(distinct id)::text[] from (
        select wallet_from_id as id from pg_temp.transactions
        union select wallet_to_id from pg_temp.transactions
        union select unnest(${mine}::bigint[])) as ids where id is not null) as wallets,
      (select array_agg(id)::text[] from pg_temp.transactions) as transactions`,
  );
  const wallets = named?.wallets ?? [];
  await rows(
    tx,
    sql`create temporary table wallets on commit drop as
      select * from wallets where id = any(${wallets}::bigint[])`,
  );
  await rows(
    tx,
    sql`create temporary table vouchers on commit drop as
      select * from vouchers where activation_transaction_id = any(${named?.transactions ?? []}::bigint[])`,
  );
  for (const counts of ["history_counts_exact", "history_month_counts_exact"])
    await rows(
      tx,
      sql`create temporary table ${sql.raw(counts)} on commit drop as
        select * from ${sql.raw(counts)} where wallet_id = any(${mine}::bigint[])`,
    );
}
