import { Migration } from "@mikro-orm/migrations";
import { walletSidesSql } from "./0009-history-counts.ts";

/**
 * The history's counts per calendar month (UTC) beside the daily ones (migration 0009), so a total
 * reads whole months plus the days of at most two partial months: a year is 12 rows per wallet and
 * key instead of 365 (at 1M transactions of one merchant the whole range's total read 11 200 day
 * rows, about 7 ms, and grew with every day of history; docs/benchmark.md).
 *
 * A month row is the sum of that month's day rows, and is kept in the same statement: the
 * transactions' statement triggers now call a `history_counts_apply()` that upserts the day rows
 * and, from the same grouped rows, the month rows (one SQL statement, a data-modifying CTE). The
 * same contention argument as the days': the rows are keyed by wallets the movement holds locked.
 * `purse audit` checks each month against its days.
 *
 * Its own SQL (frozen; the wallets a transaction counts on are 0009's shipped text, as the audit's).
 * Writers are held off (SHARE on transactions) while the function is
 * replaced and the months are summed from the days, so no transaction is counted by the old
 * function after the backfill has read the days.
 */
export class Migration0012HistoryMonthCounts extends Migration {
  override name = "0012-history-month-counts";

  override up(): void {
    this.addSql("lock table transactions in share mode");
    this.addSql(`create table history_month_counts (
      wallet_id bigint not null,
      month date not null,
      currency_id integer not null,
      type smallint not null,
      status smallint not null,
      internal boolean not null,
      n bigint not null,
      amount_minor numeric not null,
      commission_minor numeric not null,
      constraint history_month_counts_pkey primary key (wallet_id, month, type, status, internal, currency_id)
    )`);
    this.addSql(`create or replace function history_counts_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${upsert("select t.*, 1 as sign from new_rows t")};
        elsif tg_op = 'DELETE' then
          ${upsert("select t.*, -1 as sign from old_rows t")};
        else
          ${upsert("select t.*, -1 as sign from old_rows t union all select t.*, 1 from new_rows t")};
        end if;
        return null;
      end
    $$`);
    this.addSql(`insert into history_month_counts
        (wallet_id, month, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
        sum(n), sum(amount_minor), sum(commission_minor)
      from history_counts
      group by 1, 2, 3, 4, 5, 6`);
  }
}

/**
 * Adds each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets' day
 * and month counts, both upserted in key order.
 */
function upsert(signed: string): string {
  return `with grouped as (
      select side.wallet_id, (t.created_at at time zone 'UTC')::date as day, t.currency_id, t.type,
        t.status, side.internal, sum(t.sign) as n, sum(t.sign * t.amount_minor) as amount_minor,
        sum(t.sign * t.commission_minor) as commission_minor
      from (${signed}) as t
      ${walletSidesSql}
      group by 1, 2, 3, 4, 5, 6
    ), days as (
      insert into history_counts as h
        (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select * from grouped
      order by wallet_id, day, type, status, internal, currency_id
      on conflict (wallet_id, day, type, status, internal, currency_id) do update
        set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
          commission_minor = h.commission_minor + excluded.commission_minor
    )
    insert into history_month_counts as m
      (wallet_id, month, currency_id, type, status, internal, n, amount_minor, commission_minor)
    select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
      sum(n), sum(amount_minor), sum(commission_minor)
    from grouped
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 4, 5, 6, 3
    on conflict (wallet_id, month, type, status, internal, currency_id) do update
      set n = m.n + excluded.n, amount_minor = m.amount_minor + excluded.amount_minor,
        commission_minor = m.commission_minor + excluded.commission_minor`;
}
