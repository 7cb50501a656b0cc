import type { SqlEntityManager } from "@mikro-orm/sql";
import { walletSidesSql } from "../persistence/migrations/0009-history-counts.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { chainGenesisSql, chainLinkSql, postingsArraySql, transactionHashSql } from "./ledger-hash.ts";

/**
 * The audit's reads (ledger/audit-ledger.ts, ledger/verify-chains.ts), each returning at most
 * `limit` breaches; the caller runs them in one repeatable-read snapshot.
 */

const recomputedHash = sql.raw(
  transactionHashSql("t", postingsArraySql("postings p where p.transaction_id = t.id")),
);
const expectedLink = sql.raw(chainLinkSql("w.previous", "w.hash"));
const genesis = sql.raw(chainGenesisSql);
const walletSides = sql.raw(walletSidesSql);

/** Transactions whose postings do not sum to zero in a currency. */
export async function unbalancedTransactionRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ transaction_id: string; code: string; total: string }[]> {
  return rows(
    em,
    sql<{ transaction_id: string; code: string; total: string }>`
      select p.transaction_id, c.code, sum(p.amount_minor)::text as total
      from postings p join currencies c on c.id = p.currency_id
      group by p.transaction_id, c.code having sum(p.amount_minor) <> 0
      order by p.transaction_id limit ${limit}`,
  );
}

/** Wallets whose balance is not the sum of their postings. */
export async function walletBalanceMismatchRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ number: string; balance: string; posted: string }[]> {
  return rows(
    em,
    sql<{ number: string; balance: string; posted: string }>`
      select w.number, w.balance_minor::text as balance, coalesce(p.total, 0)::text as posted
      from wallets w
      left join (select wallet_id, sum(amount_minor) as total from postings where wallet_id is not null
                 group by wallet_id) p on p.wallet_id = w.id
      where w.balance_minor <> coalesce(p.total, 0)
      order by w.id limit ${limit}`,
  );
}

/** Wallets below zero. */
export async function negativeWalletRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ number: string; balance: string }[]> {
  return rows(
    em,
    sql<{ number: string; balance: string }>`select number, balance_minor::text as balance from wallets
      where balance_minor < 0 order by id limit ${limit}`,
  );
}

/** The fee and voucher accounts' currencies below zero (equity is negative by design). */
export async function negativeSystemAccountRows(
  em: SqlEntityManager,
): Promise<{ account: string; code: string; total: string }[]> {
  return rows(
    em,
    sql<{ account: string; code: string; total: string }>`
      select p.account, c.code, sum(p.amount_minor)::text as total
      from postings p join currencies c on c.id = p.currency_id
      where p.account in ('fee', 'voucher')
      group by p.account, c.code having sum(p.amount_minor) < 0`,
  );
}

/** Postings in another currency than their wallet's. */
export async function foreignCurrencyPostingRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ id: string; number: string }[]> {
  return rows(
    em,
    sql<{ id: string; number: string }>`
      select p.id, w.number from postings p join wallets w on w.id = p.wallet_id
      where p.currency_id <> w.currency_id order by p.id limit ${limit}`,
  );
}

/** Transactions whose stored hash is not the one recomputed from their content and postings. */
export async function hashMismatchRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ id: string; sealed: boolean }[]> {
  return rows(
    em,
    sql<{ id: string; sealed: boolean }>`
      select t.id, t.hash is not null as sealed from transactions t
      where t.hash is distinct from ${recomputedHash}
      order by t.id limit ${limit}`,
  );
}

/** A wallet's postings whose chain link does not follow from the link before it. */
export async function brokenLinkRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ transaction_id: string; number: string }[]> {
  return rows(
    em,
    sql<{ transaction_id: string; number: string }>`
      with links as (
        select p.wallet_id, p.transaction_id, count(distinct p.chain_hash) as variants,
          bool_and(p.chain_hash is not null) as complete, (array_agg(p.chain_hash))[1] as link
        from postings p where p.wallet_id is not null
        group by p.wallet_id, p.transaction_id
      ), w as (
        select links.*, t.hash,
          lag(links.link, 1, ${genesis}) over (partition by links.wallet_id order by links.transaction_id) as previous
        from links join transactions t on t.id = links.transaction_id
      )
      select w.transaction_id, wallets.number from w join wallets on wallets.id = w.wallet_id
      where not coalesce(w.complete and w.variants = 1 and w.link = ${expectedLink}, false)
      order by w.transaction_id, w.wallet_id limit ${limit}`,
  );
}

/** Wallets whose chain head is not their last posting's link. */
export async function staleChainHeadRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ number: string; last_transaction_id: string | null }[]> {
  return rows(
    em,
    sql<{ number: string; last_transaction_id: string | null }>`
      select w.number, last.transaction_id as last_transaction_id from wallets w
      left join lateral (
        select transaction_id, chain_hash from postings
        where wallet_id = w.id order by transaction_id desc limit 1
      ) as last on true
      where w.chain_head is distinct from coalesce(last.chain_hash, ${genesis})
      order by w.id limit ${limit}`,
  );
}

/** How many transactions and postings the ledger holds. */
export async function ledgerCounts(
  em: SqlEntityManager,
): Promise<{ transactions: string; postings: string } | undefined> {
  return firstRow(
    em,
    sql<{ transactions: string; postings: string }>`select
      (select count(*) from transactions) as transactions, (select count(*) from postings) as postings`,
  );
}

/** A day's history counts that differ from the transactions they count (migration 0009). */
export interface HistoryCountMismatchRow {
  number: string | null;
  wallet_id: string;
  day: string;
  type: number;
  status: number;
  internal: boolean;
  counted: string;
  expected: string;
}

/**
 * `history_counts` with its deltas not folded yet (migration 0020: folded and unfolded together
 * are the count, so a wrong folded row is a wrong count) recounted from the transactions: each
 * transaction on its sending wallet, and on its receiving wallet unless that is the same wallet
 * (`internal` when the two wallets have one owner), with the triggers' own text (migration 0009's
 * walletSidesSql). Every key whose count, amounts or fees differ; a key brought back to nothing is
 * as good as no row.
 */
export async function historyCountMismatchRows(
  em: SqlEntityManager,
  limit: number,
): Promise<HistoryCountMismatchRow[]> {
  return rows(
    em,
    sql<HistoryCountMismatchRow>`
      with expected as (
        select side.wallet_id, (t.created_at at time zone 'UTC')::date as day, t.currency_id, t.type, t.status,
          side.internal, count(*) as n, sum(t.amount_minor) as amount_minor, sum(t.commission_minor) as commission_minor
        from transactions t
        ${walletSides}
        group by 1, 2, 3, 4, 5, 6
      ), kept as (
        select wallet_id, day, currency_id, type, status, internal, sum(n) as n,
          sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
        from history_counts_exact group by 1, 2, 3, 4, 5, 6
        having sum(n) <> 0 or sum(amount_minor) <> 0 or sum(commission_minor) <> 0
      ), differing as (
        select coalesce(e.wallet_id, k.wallet_id) as wallet_id, coalesce(e.day, k.day) as day,
          coalesce(e.type, k.type) as type, coalesce(e.status, k.status) as status,
          coalesce(e.internal, k.internal) as internal,
          coalesce(k.n, 0) as counted, coalesce(e.n, 0) as expected
        from expected e full join kept k
          on k.wallet_id = e.wallet_id and k.day = e.day and k.currency_id = e.currency_id
            and k.type = e.type and k.status = e.status and k.internal = e.internal
        where e.n is distinct from k.n or e.amount_minor is distinct from k.amount_minor
          or e.commission_minor is distinct from k.commission_minor
      )
      select w.number, d.wallet_id::text, d.day::text, d.type, d.status, d.internal,
        d.counted::text, d.expected::text
      from differing d left join wallets w on w.id = d.wallet_id
      order by d.wallet_id, d.day, d.type, d.status, d.internal limit ${limit}`,
  );
}

/** A wallet's day whose kept net differs from its postings that day (migration 0011). */
export interface WalletDayMismatchRow {
  number: string | null;
  wallet_id: string;
  day: string;
  kept: string;
  expected: string;
}

/**
 * `wallet_days` with its deltas not folded yet (migration 0020) recomputed from the wallet
 * postings, per wallet and UTC day of `created_at`: every day whose net differs; a row the triggers brought back to zero is
 * as good as no row.
 */
export async function walletDayMismatchRows(
  em: SqlEntityManager,
  limit: number,
): Promise<WalletDayMismatchRow[]> {
  return rows(
    em,
    sql<WalletDayMismatchRow>`
      with expected as (
        select wallet_id, (created_at at time zone 'UTC')::date as day, sum(amount_minor)::numeric as net
        from postings where wallet_id is not null group by 1, 2
      ), differing as (
        select coalesce(e.wallet_id, k.wallet_id) as wallet_id, coalesce(e.day, k.day) as day,
          coalesce(k.net_minor, 0) as kept, coalesce(e.net, 0) as expected
        from expected e full join (select wallet_id, day, sum(net_minor) as net_minor from wallet_days_exact
            group by 1, 2 having sum(net_minor) <> 0) k
          on k.wallet_id = e.wallet_id and k.day = e.day
        where coalesce(k.net_minor, 0) <> coalesce(e.net, 0)
      )
      select w.number, d.wallet_id::text, d.day::text, d.kept::text, d.expected::text
      from differing d left join wallets w on w.id = d.wallet_id
      order by d.wallet_id, d.day limit ${limit}`,
  );
}

/** A month's history counts that differ from the sum of its day counts (migration 0012). */
export interface HistoryMonthMismatchRow {
  number: string | null;
  wallet_id: string;
  month: string;
  type: number;
  status: number;
  internal: boolean;
  counted: string;
  expected: string;
}

/**
 * `history_month_counts` against its month's `history_counts` rows (themselves checked against the
 * transactions), each with the deltas not folded yet (migration 0020; the same deltas on both sides): every key whose count, amounts or fees differ; rows brought back to nothing on
 * either side are as good as no row.
 */
export async function historyMonthMismatchRows(
  em: SqlEntityManager,
  limit: number,
): Promise<HistoryMonthMismatchRow[]> {
  return rows(
    em,
    sql<HistoryMonthMismatchRow>`
      with expected as (
        select wallet_id, date_trunc('month', day::timestamp)::date as month, currency_id, type, status,
          internal, sum(n) as n, sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
        from history_counts_exact group by 1, 2, 3, 4, 5, 6
        having sum(n) <> 0 or sum(amount_minor) <> 0 or sum(commission_minor) <> 0
      ), kept as (
        select wallet_id, month, currency_id, type, status, internal, sum(n) as n,
          sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
        from history_month_counts_exact group by 1, 2, 3, 4, 5, 6
        having sum(n) <> 0 or sum(amount_minor) <> 0 or sum(commission_minor) <> 0
      )
      select w.number, coalesce(e.wallet_id, k.wallet_id)::text as wallet_id,
        coalesce(e.month, k.month)::text as month, coalesce(e.type, k.type) as type,
        coalesce(e.status, k.status) as status, coalesce(e.internal, k.internal) as internal,
        coalesce(k.n, 0)::text as counted, coalesce(e.n, 0)::text as expected
      from expected e full join kept k
        on k.wallet_id = e.wallet_id and k.month = e.month and k.currency_id = e.currency_id
          and k.type = e.type and k.status = e.status and k.internal = e.internal
      left join wallets w on w.id = coalesce(e.wallet_id, k.wallet_id)
      where e.n is distinct from k.n or e.amount_minor is distinct from k.amount_minor
        or e.commission_minor is distinct from k.commission_minor
      order by 2, 3, 4, 5, 6 limit ${limit}`,
  );
}

/**
 * The relations the audit reads, with the indexes its lookups use, for `copyLedgerForAudit`.
 */
const auditedRelations: readonly [name: string, indexes: readonly string[]][] = [
  ["transactions", ["id"]],
  ["postings", ["transaction_id", "wallet_id, transaction_id"]],
  ["wallets", ["id"]],
  ["checkouts", ["transaction_id"]],
  ["history_counts_exact", []],
  ["history_month_counts_exact", []],
  ["wallet_days_exact", []],
];

/**
 * On a database distributed by Citus (persistence/citus-routing.ts), the audit's relations copied
 * into temporary tables of the same names, dropped at its COMMIT: a session finds its temporary
 * tables first, so the audit's queries then run unchanged, on the coordinator alone. Citus cannot
 * run them on the distributed tables: they join rows of different owners (a posting and its
 * transaction, a posting and another owner's wallet) on columns that are not the owner. The copy
 * reads the whole ledger through the coordinator, as the audit reads all of it anyway.
 */
export async function copyLedgerForAudit(em: SqlEntityManager): Promise<void> {
  for (const [name, indexes] of auditedRelations) {
    await em.execute(`create temporary table ${name} on commit drop as select * from ${name}`);
    for (const columns of indexes) await em.execute(`create index on pg_temp.${name} (${columns})`);
    await em.execute(`analyze pg_temp.${name}`);
  }
}
