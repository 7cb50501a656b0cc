import { Migration } from "@mikro-orm/migrations";

/**
 * Drops the amount counts of migrations 0013 and 0014 (issue 35): nothing the specification or the
 * dashboard's contract asks for needs an exact total under `minAmount`/`maxAmount`, and they cost
 * every movement five counter tables' upserts in its trigger statement (about three times the
 * PostgreSQL time of the day and month counts alone), 1.16 GB beside 356 MB of transactions at 1M
 * rows, and an audit of minutes. A total under amount bounds now counts the matching rows up to a
 * cap and says whether it stopped there (transactions/capped-totals-store.ts).
 *
 * The transactions' trigger function goes back to the day and month counts alone (migration 0012's
 * statement, written out here: a migration holds its own SQL), then the three tables and the four
 * bucket functions only they used are dropped. 0013's expression indexes went with 0014.
 *
 * Writers are held off (SHARE on transactions) while the function is replaced and the tables
 * dropped, so no movement is between the old function's upsert of a dropped table and its commit.
 * Dropping a table does not read it: the migration takes as long as its lock waits, not the
 * tables' size.
 */
export class Migration0015DropHistoryAmountCounts extends Migration {
  override name = "0015-drop-history-amount-counts";

  override up(): void {
    this.addSql("lock table transactions in share mode");
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
    this.addSql("drop table history_amount_counts, history_amount_month_counts, history_amount_year_counts");
    this.addSql(`drop function history_amount_lower(integer, bigint), history_amount_parent(integer, bigint),
      history_amount_bucket(integer, bigint), history_amount_bucket_end(integer, bigint)`);
  }
}

/**
 * Adds each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets' day
 * and month counts, both upserted in key order: each transaction on its sending wallet, and on its
 * receiving wallet unless that is the same one, `internal` when the two have one owner (migration
 * 0009's sides).
 */
function upsert(signed: string): string {
  return `with grouped as (
      select side.wallet_id, (t.created_at at time zone 'UTC')::date as day, t.currency_id, t.type,
        t.status, side.internal, sum(t.sign) as n, sum(t.sign * t.amount_minor) as amount_minor,
        sum(t.sign * t.commission_minor) as commission_minor
      from (${signed}) as t
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      cross join lateral (values
        (t.wallet_from_id, false),
        (case when t.wallet_to_id is distinct from t.wallet_from_id then t.wallet_to_id end,
         coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, internal)
      where side.wallet_id is not null
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
