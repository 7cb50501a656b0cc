import { Migration } from "@mikro-orm/migrations";

/**
 * How much each wallet's balance moved per UTC day (the sum of its postings that day), so a
 * balance at any instant costs O(days), not a sum over every posting before it: a statement's
 * opening balance (statement/statement-store.ts) and the balance chart's days
 * (wallet/balance-history-store.ts) read these rows plus the postings of at most one partial day.
 *
 * Keyed by the posting's own `created_at`, as the statement and the chart select postings, and
 * kept by statement-level triggers on `postings` in the statement that writes them, whoever writes
 * (the movement's one statement, seeds, operator verbs, a bulk load that writes postings after
 * their transactions): inserts add, deletes subtract, an update moves a posting's amount from its
 * old day to its new one. `purse audit` recomputes them from the postings.
 *
 * Why no new contention: only wallet postings count, and every writer of a wallet posting updates
 * that wallet's balance in the same transaction, so it already holds the wallet's row lock until
 * it commits; the day rows it upserts are that wallet's, in key order. A system account (fee,
 * equity, voucher) has no row here, as it has no balance row. No foreign key to wallets: its check
 * would lock the wallet row per day row; the audit checks instead. `numeric`, as history_counts'
 * sums: a day's net of arbitrary postings need not fit a bigint.
 *
 * Its own SQL (frozen): the backfill sums the postings that exist now, in one pass.
 */
export class Migration0011WalletDays extends Migration {
  override name = "0011-wallet-days";

  override up(): void {
    this.addSql(`create table wallet_days (
      wallet_id bigint not null,
      day date not null,
      net_minor numeric not null,
      constraint wallet_days_pkey primary key (wallet_id, day)
    )`);
    this.addSql(`create function wallet_days_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${upsert("select p.wallet_id, p.created_at, p.amount_minor from new_rows p")};
        elsif tg_op = 'DELETE' then
          ${upsert("select p.wallet_id, p.created_at, -p.amount_minor from old_rows p")};
        else
          ${upsert(`select p.wallet_id, p.created_at, -p.amount_minor from old_rows p
            union all select p.wallet_id, p.created_at, p.amount_minor from new_rows p`)};
        end if;
        return null;
      end
    $$`);
    this.addSql(`create trigger wallet_days_insert after insert on postings
      referencing new table as new_rows for each statement execute function wallet_days_apply()`);
    this.addSql(`create trigger wallet_days_delete after delete on postings
      referencing old table as old_rows for each statement execute function wallet_days_apply()`);
    this.addSql(`create trigger wallet_days_update after update on postings
      referencing old table as old_rows new table as new_rows
      for each statement execute function wallet_days_apply()`);
    this.addSql(upsert("select p.wallet_id, p.created_at, p.amount_minor from postings p"));
  }
}

/**
 * Adds `signed`'s postings (wallet id, time, signed amount) to their wallets' days. An update that
 * moves nothing (the hash chain's `chain_hash`, set after a bulk load) nets to zero and upserts no
 * row at all.
 */
function upsert(signed: string): string {
  return `insert into wallet_days as d (wallet_id, day, net_minor)
    select p.wallet_id, (p.created_at at time zone 'UTC')::date, sum(p.amount_minor)
    from (${signed}) as p(wallet_id, created_at, amount_minor)
    where p.wallet_id is not null
    group by 1, 2
    having sum(p.amount_minor) <> 0
    order by 1, 2
    on conflict (wallet_id, day) do update set net_minor = d.net_minor + excluded.net_minor`;
}
