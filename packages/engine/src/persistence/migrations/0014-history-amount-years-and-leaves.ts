import { Migration } from "@mikro-orm/migrations";
import { walletSidesSql } from "./0009-history-counts.ts";

/**
 * Totals under amount bounds whose cost does not grow with the ledger (issue 23): migration 0013
 * read, per wallet, every month of the period (about 120 at 10M transactions of the bench's
 * merchant) and counted the rows of the two-digit buckets holding a bound one by one (a fixed share
 * of every match, so linear in the ledger). Two changes, both still keyed by wallet (rows a movement
 * holds locked: no new contention, unlike counters per user, which every movement of a merchant
 * would update and wait on):
 *
 * - a fourth level of exact amounts (`level` 3: `lower` is the amount itself, `parent` its two-digit
 *   bucket), so the part of a boundary bucket inside the bounds is a range of counter rows: at most
 *   one row per distinct amount in it per wallet, period and key, whatever the number of
 *   transactions (the bench's amounts put at most 6 distinct amounts on either side of 123.45);
 * - `history_amount_year_counts`, the four levels per calendar year (UTC), so a long period reads
 *   its whole years, then at most half a year of months and half a month of days at either end.
 *
 * The expression indexes 0013 made for counting boundary rows are dropped: nothing reads them now,
 * and each cost its share of every insert. The trigger function is replaced by one that upserts the
 * day and month counts and the amount counts at four levels per day, month and year, from one
 * grouped read of the changed rows, each table in its key order. `purse audit` recounts the three
 * amount tables from the transactions.
 *
 * Its own SQL (frozen; 0009's wallet sides and 0013's bucket functions are shipped text). Writers
 * are held off (SHARE on transactions) while the function is replaced and the new rows counted.
 */
export class Migration0014HistoryAmountYearsAndLeaves extends Migration {
  override name = "0014-history-amount-years-and-leaves";

  override up(): void {
    this.addSql("lock table transactions in share mode");
    // The counter key of `amount` at `level`: 0013's bucket at levels 0 to 2, the amount itself at 3.
    this.addSql(`create function history_amount_lower(level integer, amount bigint) returns bigint
      language sql immutable parallel safe as $$
        select case when level = 3 then amount else history_amount_bucket(level, amount) end $$`);
    // The bucket one level above the one starting at `lower` (0 above a decade).
    this.addSql(`create function history_amount_parent(level integer, lower bigint) returns bigint
      language sql immutable parallel safe as $$
        select case when level = 0 then 0::bigint when level = 3 then history_amount_bucket(2, lower)
          else history_amount_bucket(level - 1, lower) end $$`);
    this.addSql(`create table history_amount_year_counts (
        wallet_id bigint not null,
        level smallint not null,
        parent bigint not null,
        year date not null,
        lower bigint not null,
        currency_id integer not null,
        type smallint not null,
        status smallint not null,
        internal boolean not null,
        n bigint not null,
        amount_minor numeric not null,
        commission_minor numeric not null,
        constraint history_amount_year_counts_pkey
          primary key (wallet_id, level, parent, year, lower, type, status, internal, currency_id)
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
    this.addSql(`insert into history_amount_counts
        (wallet_id, level, parent, day, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select side.wallet_id, 3, history_amount_bucket(2, t.amount_minor), (t.created_at at time zone 'UTC')::date,
        t.amount_minor, t.currency_id, t.type, t.status, side.internal, count(*), sum(t.amount_minor),
        sum(t.commission_minor)
      from transactions t
      ${walletSidesSql}
      group by 1, 3, 4, 5, 6, 7, 8, 9`);
    this.addSql(`insert into history_amount_month_counts
        (wallet_id, level, parent, month, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, level, parent, date_trunc('month', day::timestamp)::date, lower, currency_id, type,
        status, internal, sum(n), sum(amount_minor), sum(commission_minor)
      from history_amount_counts where level = 3
      group by wallet_id, level, parent, 4, lower, currency_id, type, status, internal`);
    this.addSql(`insert into history_amount_year_counts
        (wallet_id, level, parent, year, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, level, parent, date_trunc('year', month::timestamp)::date, lower, currency_id, type,
        status, internal, sum(n), sum(amount_minor), sum(commission_minor)
      from history_amount_month_counts
      group by wallet_id, level, parent, 4, lower, currency_id, type, status, internal`);
    this.addSql("drop index transactions_wallet_from_amount_idx");
    this.addSql("drop index transactions_wallet_to_amount_idx");
  }
}

/**
 * Adds each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets' day and
 * month counts and to their amount counts at four levels per day, month and year: one grouped read
 * of the rows, five upserts, each in its table's key order.
 */
function upsert(signed: string): string {
  const add = (alias: string) =>
    `n = ${alias}.n + excluded.n, amount_minor = ${alias}.amount_minor + excluded.amount_minor,
        commission_minor = ${alias}.commission_minor + excluded.commission_minor`;
  const amountColumns =
    "wallet_id, level, parent, day, lower, currency_id, type, status, internal, n, amount_minor, commission_minor";
  // One period's amount rows summed from the day buckets (`period`: the month's or year's first day).
  const amountPeriod = (table: string, column: string, trunc: string, alias: string) => `
    insert into ${table} as ${alias} (${amountColumns.replace("day", column)})
    select wallet_id, level, parent, date_trunc('${trunc}', day::timestamp)::date, lower, currency_id, type,
      status, internal, sum(n), sum(amount_minor), sum(commission_minor)
    from buckets
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9
    order by 1, 2, 3, 4, 5, 7, 8, 9, 6
    on conflict (wallet_id, level, parent, ${column}, lower, type, status, internal, currency_id) do update set ${add(alias)}`;
  return `with sides as (
      select side.wallet_id, (t.created_at at time zone 'UTC')::date as day, t.currency_id, t.type,
        t.status, side.internal, t.sign, t.amount_minor, t.commission_minor
      from (${signed}) as t
      ${walletSidesSql}
    ), grouped as (
      select wallet_id, day, currency_id, type, status, internal, sum(sign) as n,
        sum(sign * amount_minor) as amount_minor, sum(sign * commission_minor) as commission_minor
      from sides group by 1, 2, 3, 4, 5, 6
    ), buckets as (
      select b.wallet_id, b.level, history_amount_parent(b.level, b.lower) as parent, b.day, b.lower,
        b.currency_id, b.type, b.status, b.internal, b.n, b.amount_minor, b.commission_minor
      from (select s.wallet_id, lv.level, s.day, history_amount_lower(lv.level, s.amount_minor) as lower,
              s.currency_id, s.type, s.status, s.internal, sum(s.sign) as n,
              sum(s.sign * s.amount_minor) as amount_minor, sum(s.sign * s.commission_minor) as commission_minor
            from sides s cross join (values (0), (1), (2), (3)) as lv(level)
            group by 1, 2, 3, 4, 5, 6, 7, 8) as b
    ), days as (
      insert into history_counts as h
        (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select * from grouped
      order by wallet_id, day, type, status, internal, currency_id
      on conflict (wallet_id, day, type, status, internal, currency_id) do update set ${add("h")}
    ), months as (
      insert into history_month_counts as m
        (wallet_id, month, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
        sum(n), sum(amount_minor), sum(commission_minor)
      from grouped
      group by 1, 2, 3, 4, 5, 6
      order by 1, 2, 4, 5, 6, 3
      on conflict (wallet_id, month, type, status, internal, currency_id) do update set ${add("m")}
    ), amount_days as (
      insert into history_amount_counts as a (${amountColumns})
      select * from buckets
      order by wallet_id, level, parent, day, lower, type, status, internal, currency_id
      on conflict (wallet_id, level, parent, day, lower, type, status, internal, currency_id) do update set ${add("a")}
    ), amount_months as (${amountPeriod("history_amount_month_counts", "month", "month", "am")}
    )${amountPeriod("history_amount_year_counts", "year", "year", "ay")}`;
}
