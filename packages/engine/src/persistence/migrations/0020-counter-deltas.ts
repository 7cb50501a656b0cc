import { Migration } from "@mikro-orm/migrations";
import { walletSidesSql } from "./0009-history-counts.ts";

/**
 * The counters off the movement's statement (issue 40, item 1). Until now the statement triggers
 * of `transactions` and `postings` upserted the history's day and month counts (migrations 0009,
 * 0012) and the wallets' daily nets (migration 0011) inside every movement: about 28 upserts per
 * transfer, 34-46 % of PostgreSQL's time per transfer (docs/benchmark.md). Now the same triggers
 * only append: one grouped delta row per key to `history_count_deltas` or `wallet_day_deltas`
 * (insert only, no row anybody else updates), and `fold_counters()` moves the deltas into the
 * counters in the background (server/serve/background-jobs.ts, ledger/fold-counters.ts).
 *
 * Exact at every moment, with no watermark: a fold deletes the deltas it adds to the counters in
 * the same transaction, so any snapshot sees each delta either still in its delta table or already
 * in its counter, never both and never neither. A movement still in flight has its deltas
 * invisible to the fold (its `delete` cannot see them) and to every reader, exactly as its
 * transactions and postings are; they are folded by a later round, whatever the order in which
 * movements commit. Readers read the `*_exact` views (the counter rows plus the unfolded deltas)
 * in one statement (one snapshot). One folder at a time per schema (a transaction-level advisory
 * lock; a second caller returns at once), so several `purse serve` processes can all run it.
 *
 * Existing data needs no conversion: the counters were exact when the migration takes the lock and
 * stay the folded part; the delta tables start empty. Writers are held off (SHARE on both tables)
 * while the trigger functions are replaced, so no movement is between the old function's upsert and
 * its commit. Unqualified names only: the same migration runs in every schema (test mode's too),
 * and `fold_counters` keeps the search path it was created under, so calling it by its schema's
 * name folds that schema's counters.
 */
export class Migration0020CounterDeltas extends Migration {
  override name = "0020-counter-deltas";

  override up(): void {
    this.addSql("lock table transactions, postings in share mode");
    // A queue's table: rows live until the next fold (about a second), so autovacuum should clear
    // the deleted ones after a fixed number of them, not after a fraction of a table that stays small.
    const queueStorage = `with (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
      autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000,
      autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000)`;
    this.addSql(`create table history_count_deltas (
      wallet_id bigint not null,
      day date not null,
      currency_id integer not null,
      type smallint not null,
      status smallint not null,
      internal boolean not null,
      n bigint not null,
      amount_minor numeric not null,
      commission_minor numeric not null
    ) ${queueStorage}`);
    // Readers add a wallet's unfolded deltas: found by wallet, however long the folder lags.
    this.addSql("create index history_count_deltas_wallet_idx on history_count_deltas (wallet_id)");
    this.addSql(`create table wallet_day_deltas (
      wallet_id bigint not null,
      day date not null,
      net_minor numeric not null
    ) ${queueStorage}`);
    this.addSql("create index wallet_day_deltas_wallet_idx on wallet_day_deltas (wallet_id)");

    this.addSql(`create or replace function history_counts_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${historyDeltas("select t.*, 1 as sign from new_rows t")};
        elsif tg_op = 'DELETE' then
          ${historyDeltas("select t.*, -1 as sign from old_rows t")};
        else
          ${historyDeltas("select t.*, -1 as sign from old_rows t union all select t.*, 1 from new_rows t")};
        end if;
        return null;
      end
    $$`);
    this.addSql(`create or replace function wallet_days_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${dayDeltas("select p.wallet_id, p.created_at, p.amount_minor from new_rows p")};
        elsif tg_op = 'DELETE' then
          ${dayDeltas("select p.wallet_id, p.created_at, -p.amount_minor from old_rows p")};
        else
          ${dayDeltas(`select p.wallet_id, p.created_at, -p.amount_minor from old_rows p
            union all select p.wallet_id, p.created_at, p.amount_minor from new_rows p`)};
        end if;
        return null;
      end
    $$`);

    const historyColumns =
      "wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor";
    this.addSql(`create view history_counts_exact as
      select ${historyColumns} from history_counts
      union all select ${historyColumns} from history_count_deltas`);
    this.addSql(`create view history_month_counts_exact as
      select wallet_id, month, currency_id, type, status, internal, n, amount_minor, commission_minor
      from history_month_counts
      union all select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status,
        internal, n, amount_minor, commission_minor
      from history_count_deltas`);
    this.addSql(`create view wallet_days_exact as
      select wallet_id, day, net_minor from wallet_days
      union all select wallet_id, day, net_minor from wallet_day_deltas`);

    this.addSql(`create function fold_counters(max_rows integer) returns integer language plpgsql
      set search_path from current as $$
      declare
        history_rows integer;
        day_rows integer;
      begin
        if not pg_try_advisory_xact_lock(hashtext('purse fold_counters'), hashtext(current_schema())) then
          return 0;
        end if;
        with moved as (
          delete from history_count_deltas
          where ctid = any (array(select ctid from history_count_deltas limit max_rows))
          returning *
        ), grouped as (
          select wallet_id, day, currency_id, type, status, internal, sum(n) as n,
            sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
          from moved
          group by 1, 2, 3, 4, 5, 6
        ), days as (
          insert into history_counts as h
            (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
          select * from grouped
          order by wallet_id, day, type, status, internal, currency_id
          on conflict (wallet_id, day, type, status, internal, currency_id) do update
            set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
              commission_minor = h.commission_minor + excluded.commission_minor
        ), months as (
          insert into history_month_counts as m
            (wallet_id, month, currency_id, type, status, internal, n, amount_minor, commission_minor)
          select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
            sum(n), sum(amount_minor), sum(commission_minor)
          from grouped
          group by 1, 2, 3, 4, 5, 6
          order by 1, 2, 4, 5, 6, 3
          on conflict (wallet_id, month, type, status, internal, currency_id) do update
            set n = m.n + excluded.n, amount_minor = m.amount_minor + excluded.amount_minor,
              commission_minor = m.commission_minor + excluded.commission_minor
        )
        select count(*) into history_rows from moved;
        with moved as (
          delete from wallet_day_deltas
          where ctid = any (array(select ctid from wallet_day_deltas limit max_rows))
          returning *
        ), folded as (
          insert into wallet_days as d (wallet_id, day, net_minor)
          select wallet_id, day, sum(net_minor) from moved
          group by 1, 2
          having sum(net_minor) <> 0
          order by 1, 2
          on conflict (wallet_id, day) do update set net_minor = d.net_minor + excluded.net_minor
        )
        select count(*) into day_rows from moved;
        return greatest(history_rows, day_rows);
      end
    $$`);
  }
}

/**
 * Appends each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets'
 * deltas, grouped by counter key: each transaction on its sending wallet, and on its receiving
 * wallet unless that is the same one, `internal` when the two have one owner (migration 0009's
 * shipped text, as 0012's and the audit's). An update that moves nothing appends nothing.
 */
function historyDeltas(signed: string): string {
  return `insert into history_count_deltas
      (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
    select side.wallet_id, (t.created_at at time zone 'UTC')::date, t.currency_id, t.type, t.status,
      side.internal, sum(t.sign), sum(t.sign * t.amount_minor), sum(t.sign * t.commission_minor)
    from (${signed}) as t
    ${walletSidesSql}
    group by 1, 2, 3, 4, 5, 6
    having sum(t.sign) <> 0 or sum(t.sign * t.amount_minor) <> 0 or sum(t.sign * t.commission_minor) <> 0`;
}

/** Appends `signed`'s postings (wallet id, time, signed amount) to their wallets' day deltas. */
function dayDeltas(signed: string): string {
  return `insert into wallet_day_deltas (wallet_id, day, net_minor)
    select p.wallet_id, (p.created_at at time zone 'UTC')::date, sum(p.amount_minor)
    from (${signed}) as p(wallet_id, created_at, amount_minor)
    where p.wallet_id is not null
    group by 1, 2
    having sum(p.amount_minor) <> 0`;
}
