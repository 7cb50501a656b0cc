import { Migration } from "@mikro-orm/migrations";

/**
 * Every owned row says whose it is, and the counters are written by the movement (issue 39 item 1,
 * docs/sharding.md). On Citus each owned table is distributed by its owner's user id, which needs
 * that column in the table; Citus refuses a table with triggers, and the counters' insert triggers
 * were what every movement ran.
 *
 * - `postings.user_id`: the owner of the posting's wallet, or for a fee, equity or voucher posting
 *   the movement's acting user (the transaction's `user_id`). Written by the movement's statement.
 * - `webhook_deliveries.merchant_user_id` and `webhook_attempts.merchant_user_id`: the checkout's
 *   merchant; `event_deliveries.user_id` and `event_attempts.user_id`: the endpoint's owner.
 * - The five counter tables (`history_counts`, `history_month_counts`, `wallet_days` and their
 *   delta tables) carry the wallet's owner, last in their primary keys: readers find rows by wallet
 *   first, as before, and Citus takes a key that includes its distribution column.
 * - The counters' INSERT triggers on `transactions` and `postings` go: the movement's one ledger
 *   statement appends the same deltas itself (ledger/ledger-write-store.ts; it knows every wallet it
 *   touches), and nothing else in Purse inserts ledger rows. The UPDATE and DELETE triggers stay on
 *   plain PostgreSQL for edits made outside Purse (an operator's SQL, a restore, a test moving a
 *   row in time): Purse itself never updates or deletes a sealed ledger row. Citus refuses them,
 *   so `purse citus distribute` drops them there (docs/sharding.md).
 *
 * Backfills read every existing row once; writers are held off (SHARE on the ledger tables) while
 * the trigger functions and the fold are replaced, so no movement counts under the old functions
 * after the counters have been given their owners. Runs in every schema (test mode's too): it
 * touches only tables both schemas have their own copy of, and `fold_counters` is created again
 * under each schema's search path, as 0020 did.
 */
export class Migration0021OwnerColumns extends Migration {
  override name = "0021-owner-columns";

  override up(): void {
    this.addSql("lock table transactions, postings in share mode");

    this.addSql("alter table postings add column user_id bigint");
    this.addSql(`update postings p set user_id = coalesce(
        (select w.user_id from wallets w where w.id = p.wallet_id),
        (select t.user_id from transactions t where t.id = p.transaction_id))`);
    this.addSql("alter table postings alter column user_id set not null");

    this.addSql("alter table webhook_deliveries add column merchant_user_id bigint");
    this.addSql(`update webhook_deliveries d set merchant_user_id =
        (select c.merchant_user_id from checkouts c where c.id = d.checkout_id)`);
    this.addSql("alter table webhook_deliveries alter column merchant_user_id set not null");
    this.addSql("alter table webhook_attempts add column merchant_user_id bigint");
    this.addSql(`update webhook_attempts a set merchant_user_id =
        (select d.merchant_user_id from webhook_deliveries d where d.id = a.delivery_id)`);
    this.addSql("alter table webhook_attempts alter column merchant_user_id set not null");
    for (const table of ["event_deliveries", "event_attempts"]) {
      this.addSql(`alter table ${table} add column user_id bigint`);
      this.addSql(`update ${table} r set user_id =
          (select e.user_id from webhook_endpoints e where e.id = r.endpoint_id)`);
      this.addSql(`alter table ${table} alter column user_id set not null`);
    }

    for (const [table, key] of counterKeys) {
      this.addSql(`alter table ${table} add column user_id bigint`);
      this.addSql(
        `update ${table} c set user_id = (select w.user_id from wallets w where w.id = c.wallet_id)`,
      );
      this.addSql(`alter table ${table} alter column user_id set not null`);
      if (key !== null) {
        this.addSql(`alter table ${table} drop constraint ${table}_pkey,
          add constraint ${table}_pkey primary key (${key}, user_id)`);
      }
    }

    this.addSql("drop trigger history_counts_insert on transactions");
    this.addSql("drop trigger wallet_days_insert on postings");
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
          ${dayDeltas("select p.user_id, p.wallet_id, p.created_at, p.amount_minor from new_rows p")};
        elsif tg_op = 'DELETE' then
          ${dayDeltas("select p.user_id, p.wallet_id, p.created_at, -p.amount_minor from old_rows p")};
        else
          ${dayDeltas(`select p.user_id, p.wallet_id, p.created_at, -p.amount_minor from old_rows p
            union all select p.user_id, p.wallet_id, p.created_at, p.amount_minor from new_rows p`)};
        end if;
        return null;
      end
    $$`);
    this.addSql(foldCounters);
  }
}

/** The counter tables and their keys before this migration (null: a delta table, no key). */
const counterKeys: [table: string, key: string | null][] = [
  ["history_counts", "wallet_id, day, type, status, internal, currency_id"],
  ["history_month_counts", "wallet_id, month, type, status, internal, currency_id"],
  ["history_count_deltas", null],
  ["wallet_days", "wallet_id, day"],
  ["wallet_day_deltas", null],
];

/**
 * Appends each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets'
 * deltas with the wallets' owners: each transaction on its sending wallet, and on its receiving
 * wallet unless that is the same one, `internal` when the two have one owner (0009's sides, with
 * the owner of each side).
 */
function historyDeltas(signed: string): string {
  return `insert into history_count_deltas
      (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor, user_id)
    select side.wallet_id, (t.created_at at time zone 'UTC')::date, t.currency_id, t.type, t.status,
      side.internal, sum(t.sign), sum(t.sign * t.amount_minor), sum(t.sign * t.commission_minor), side.user_id
    from (${signed}) as t
    left join wallets wf on wf.id = t.wallet_from_id
    left join wallets wt on wt.id = t.wallet_to_id
    cross join lateral (values
      (t.wallet_from_id, wf.user_id, false),
      (case when t.wallet_to_id is distinct from t.wallet_from_id then t.wallet_to_id end, wt.user_id,
       coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, user_id, internal)
    where side.wallet_id is not null
    group by 1, 2, 3, 4, 5, 6, 10
    having sum(t.sign) <> 0 or sum(t.sign * t.amount_minor) <> 0 or sum(t.sign * t.commission_minor) <> 0`;
}

/** Appends `signed`'s postings (owner, wallet id, time, signed amount) to their wallets' day deltas. */
function dayDeltas(signed: string): string {
  return `insert into wallet_day_deltas (wallet_id, day, net_minor, user_id)
    select p.wallet_id, (p.created_at at time zone 'UTC')::date, sum(p.amount_minor), p.user_id
    from (${signed}) as p(user_id, wallet_id, created_at, amount_minor)
    where p.wallet_id is not null
    group by 1, 2, 4
    having sum(p.amount_minor) <> 0`;
}

/** 0020's fold, the owner carried into the counters' new keys. */
const foldCounters = `create or replace function fold_counters(max_rows integer) returns integer language plpgsql
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
          select wallet_id, day, currency_id, type, status, internal, user_id, sum(n) as n,
            sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
          from moved
          group by 1, 2, 3, 4, 5, 6, 7
        ), days as (
          insert into history_counts as h
            (wallet_id, day, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
          select * from grouped
          order by wallet_id, day, type, status, internal, currency_id, user_id
          on conflict (wallet_id, day, type, status, internal, currency_id, user_id) do update
            set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
              commission_minor = h.commission_minor + excluded.commission_minor
        ), months as (
          insert into history_month_counts as m
            (wallet_id, month, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
          select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
            user_id, sum(n), sum(amount_minor), sum(commission_minor)
          from grouped
          group by 1, 2, 3, 4, 5, 6, 7
          order by 1, 2, 4, 5, 6, 3, 7
          on conflict (wallet_id, month, type, status, internal, currency_id, user_id) do update
            set n = m.n + excluded.n, amount_minor = m.amount_minor + excluded.amount_minor,
              commission_minor = m.commission_minor + excluded.commission_minor
        )
        select count(*) into history_rows from moved;
        with moved as (
          delete from wallet_day_deltas
          where ctid = any (array(select ctid from wallet_day_deltas limit max_rows))
          returning *
        ), folded as (
          insert into wallet_days as d (wallet_id, day, user_id, net_minor)
          select wallet_id, day, user_id, sum(net_minor) from moved
          group by 1, 2, 3
          having sum(net_minor) <> 0
          order by 1, 2, 3
          on conflict (wallet_id, day, user_id) do update set net_minor = d.net_minor + excluded.net_minor
        )
        select count(*) into day_rows from moved;
        return greatest(history_rows, day_rows);
      end
    $$`;
