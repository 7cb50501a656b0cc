import { Migration } from "@mikro-orm/migrations";
import { walletSidesSql } from "./0009-history-counts.ts";

/**
 * The history's counts per amount bucket beside the day and month counts (migrations 0009 and
 * 0012), so a total under amount bounds (`minAmount`, `maxAmount`) reads counter rows and the rows
 * of at most two small buckets instead of every match (transactions/history-count-store.ts).
 *
 * Each transaction side is counted in three nested buckets of its `amount_minor` (a tree, one
 * level per significant digit): level 0 its decade `[10^e, 10^(e+1))`, level 1 its first digit
 * (`[d·10^e, (d+1)·10^e)`), level 2 its first two digits; amounts of one or two digits are their
 * own bucket at the finer levels, and 0 is a bucket of its own at every level. A row's `parent`
 * is the bucket one level up (0 for a decade), and the key puts `(level, parent)` before the day,
 * so the buckets under one parent over a period are one index range. A total under bounds
 * `[lo, hi]` adds, per wallet and period, every bucket that lies inside the bounds while its parent
 * does not (at most the decades, the first digits under the bounds' two decades and the two-digit
 * buckets under their two first-digit buckets), and counts the transactions of the at most two
 * two-digit buckets holding `lo` and `hi` one by one, through the expression indexes below (only
 * that bucket's rows in the period: 1 % of a decade).
 *
 * Kept like the day and month counts, in the same statement: the transactions' statement triggers
 * call a `history_counts_apply()` that now upserts the day, month, amount-day and amount-month rows
 * from one grouped read of the changed rows (a data-modifying CTE), in key order; the same
 * contention argument (rows keyed by wallets the movement holds locked). `purse audit` recounts the
 * amount rows from the transactions.
 *
 * Its own SQL (frozen; the wallets a transaction counts on are 0009's shipped text, as the audit's).
 * Writers are held off (SHARE on transactions) while the function is replaced and the buckets are
 * counted from the rows.
 */
export class Migration0013HistoryAmountCounts extends Migration {
  override name = "0013-history-amount-counts";

  override up(): void {
    this.addSql("lock table transactions in share mode");
    // The bucket of `amount` at `level` (0, 1, 2 significant digits kept): its smallest amount.
    // Integer arithmetic on the digits' count (no logarithm, no float). Immutable: it is indexed.
    this.addSql(`create function history_amount_bucket(level integer, amount bigint) returns bigint
      language sql immutable parallel safe as $$
        select case when amount <= 0 then amount
          when level = 0 then power(10::numeric, length(amount::text) - 1)::bigint
          else amount - amount % power(10::numeric, greatest(0, length(amount::text) - level))::bigint
        end $$`);
    // The largest amount of the bucket starting at `lower` (numeric: a decade of 10^18 ends past bigint).
    this.addSql(`create function history_amount_bucket_end(level integer, lower bigint) returns numeric
      language sql immutable parallel safe as $$
        select case when lower <= 0 then lower
          when level = 0 then lower::numeric * 10 - 1
          else lower + power(10::numeric, greatest(0, length(lower::text) - level)) - 1
        end $$`);
    for (const table of ["history_amount_counts", "history_amount_month_counts"]) {
      const period = table === "history_amount_counts" ? "day" : "month";
      this.addSql(`create table ${table} (
        wallet_id bigint not null,
        level smallint not null,
        parent bigint not null,
        ${period} date not null,
        lower bigint not null,
        currency_id integer not null,
        type smallint not null,
        status smallint not null,
        internal boolean not null,
        n bigint not null,
        amount_minor numeric not null,
        commission_minor numeric not null,
        constraint ${table}_pkey
          primary key (wallet_id, level, parent, ${period}, lower, type, status, internal, currency_id)
      )`);
    }
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
      select b.wallet_id, b.level, ${parentOf("b")}, b.day, b.lower, b.currency_id, b.type, b.status, b.internal,
        count(*), sum(b.amount_minor), sum(b.commission_minor)
      from (select side.wallet_id, (t.created_at at time zone 'UTC')::date as day, t.currency_id, t.type,
              t.status, side.internal, lv.level, history_amount_bucket(lv.level, t.amount_minor) as lower,
              t.amount_minor, t.commission_minor
            from transactions t
            cross join (values (0), (1), (2)) as lv(level)
            ${walletSidesSql}) as b
      group by b.wallet_id, b.level, b.day, b.lower, b.currency_id, b.type, b.status, b.internal`);
    this.addSql(`insert into history_amount_month_counts
        (wallet_id, level, parent, month, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, level, parent, date_trunc('month', day::timestamp)::date, lower, currency_id, type,
        status, internal, sum(n), sum(amount_minor), sum(commission_minor)
      from history_amount_counts
      group by wallet_id, level, parent, 4, lower, currency_id, type, status, internal`);
    // A boundary bucket's transactions in a period, per wallet and side: its rows only, with the
    // columns a total reads (an index-only scan on a vacuumed table).
    this.addSql(`create index transactions_wallet_from_amount_idx
      on transactions (wallet_from_id, history_amount_bucket(2, amount_minor), created_at)
      include (wallet_to_id, currency_id, type, status, amount_minor, commission_minor)`);
    this.addSql(`create index transactions_wallet_to_amount_idx
      on transactions (wallet_to_id, history_amount_bucket(2, amount_minor), created_at)
      include (wallet_from_id, currency_id, type, status, amount_minor, commission_minor)`);
  }
}

/** The bucket one level above the row `b`'s (0 above a decade). */
function parentOf(b: string): string {
  return `case ${b}.level when 0 then 0::bigint else history_amount_bucket(${b}.level - 1, ${b}.lower) end`;
}

/**
 * Adds each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets' day and
 * month counts and to their amount buckets' day and month counts: one grouped read of the rows,
 * four upserts, each in its table's key order.
 */
function upsert(signed: string): string {
  const add = (alias: string) =>
    `n = ${alias}.n + excluded.n, amount_minor = ${alias}.amount_minor + excluded.amount_minor,
        commission_minor = ${alias}.commission_minor + excluded.commission_minor`;
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
      select b.*, ${parentOf("b")} as parent
      from (select s.wallet_id, lv.level, s.day, history_amount_bucket(lv.level, s.amount_minor) as lower,
              s.currency_id, s.type, s.status, s.internal, sum(s.sign) as n,
              sum(s.sign * s.amount_minor) as amount_minor, sum(s.sign * s.commission_minor) as commission_minor
            from sides s cross join (values (0), (1), (2)) as lv(level)
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
      insert into history_amount_counts as a
        (wallet_id, level, parent, day, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
      select wallet_id, level, parent, day, lower, currency_id, type, status, internal, n, amount_minor,
        commission_minor
      from buckets
      order by wallet_id, level, parent, day, lower, type, status, internal, currency_id
      on conflict (wallet_id, level, parent, day, lower, type, status, internal, currency_id) do update set ${add("a")}
    )
    insert into history_amount_month_counts as am
      (wallet_id, level, parent, month, lower, currency_id, type, status, internal, n, amount_minor, commission_minor)
    select wallet_id, level, parent, date_trunc('month', day::timestamp)::date, lower, currency_id, type,
      status, internal, sum(n), sum(amount_minor), sum(commission_minor)
    from buckets
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9
    order by 1, 2, 3, 4, 5, 7, 8, 9, 6
    on conflict (wallet_id, level, parent, month, lower, type, status, internal, currency_id) do update set ${add("am")}`;
}
