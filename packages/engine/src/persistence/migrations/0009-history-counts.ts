import { Migration } from "@mikro-orm/migrations";

/**
 * How many transactions (and their amounts and fees) each wallet took part in, per UTC day, type,
 * status and currency: the history's exact `total` and the search's totals add up a few hundred
 * of these rows per wallet instead of counting every matching transaction
 * (transactions/history-count-store.ts).
 *
 * `internal` marks the receiving side of a transaction whose sending wallet belongs to the same
 * user: a user's history counts such a transaction once (on its sending side), while a history
 * filtered to the receiving wallet still counts it there. A transaction from a wallet to itself
 * has no receiving row at all.
 *
 * Kept by statement-level triggers in the statement that writes the transactions, whoever writes
 * them (the movement, seeds, operator verbs, restores): inserts add, deletes subtract, and an
 * update of a counted column moves the row from its old key to its new one. Transactions are
 * sealed (migration 0005) and not updated by the engine today; the update trigger (on any column: PostgreSQL allows no column list with transition tables) keeps the
 * counts right if that ever changes. `purse audit` recounts them from the rows.
 *
 * Why the upsert adds no contention: a movement already holds its wallets' rows locked until it
 * commits (ledger/wallet-store.ts), and the counter rows it touches are keyed by those same
 * wallets, so no two movements that could run at the same time update one counter row; the rows
 * are upserted in key order, as the wallets are locked in id order. No foreign key to wallets:
 * its check would take a lock on the wallet row per counter row; the audit checks instead.
 *
 * Its own SQL (frozen): the backfill counts the rows that exist now, in one pass.
 */
export class Migration0009HistoryCounts extends Migration {
  override name = "0009-history-counts";

  override up(): void {
    this.addSql(`create table history_counts (
      wallet_id bigint not null,
      day date not null,
      currency_id integer not null,
      type smallint not null,
      status smallint not null,
      internal boolean not null,
      n bigint not null,
      amount_minor numeric not null,
      commission_minor numeric not null,
      constraint history_counts_pkey primary key (wallet_id, day, type, status, internal, currency_id)
    )`);
    this.addSql(`create function history_counts_apply() returns trigger language plpgsql as $$
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
    this.addSql(`create trigger history_counts_insert after insert on transactions
      referencing new table as new_rows for each statement execute function history_counts_apply()`);
    this.addSql(`create trigger history_counts_delete after delete on transactions
      referencing old table as old_rows for each statement execute function history_counts_apply()`);
    this.addSql(`create trigger history_counts_update after update on transactions
      referencing old table as old_rows new table as new_rows
      for each statement execute function history_counts_apply()`);
    this.addSql(upsert("select t.*, 1 as sign from transactions t"));
    // The history's page reads each wallet's newest matches in (created_at, id) order: with `id` in
    // the index that is the index's own order, which PostgreSQL's plan for every parameter value
    // (a generic plan) then follows with a limit; on (wallet, created_at) alone it sorted every
    // match of the period first (5 s at 1M transactions of one merchant, docs/benchmark.md).
    this.addSql(
      "create index transactions_wallet_from_time_idx on transactions (wallet_from_id, created_at desc, id desc)",
    );
    this.addSql(
      "create index transactions_wallet_to_time_idx on transactions (wallet_to_id, created_at desc, id desc)",
    );
    this.addSql("drop index transactions_wallet_from_idx");
    this.addSql("drop index transactions_wallet_to_idx");
  }
}

/**
 * The wallets a transaction `t` counts on (`side.wallet_id`): its sending wallet, and its receiving
 * wallet unless that is the same one, `internal` when the two have one owner. Part of this
 * migration's triggers as shipped; `purse audit` recounts with the same text
 * (ledger/audit-store.ts), so the two can never count differently.
 */
export const walletSidesSql = `left join wallets wf on wf.id = t.wallet_from_id
    left join wallets wt on wt.id = t.wallet_to_id
    cross join lateral (values
      (t.wallet_from_id, false),
      (case when t.wallet_to_id is distinct from t.wallet_from_id then t.wallet_to_id end,
       coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, internal)
    where side.wallet_id is not null`;

/** Adds each of `signed`'s transactions (a row of `transactions` and a sign) to its wallets' counts. */
function upsert(signed: string): string {
  return `insert into history_counts as h
      (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
    select side.wallet_id, (t.created_at at time zone 'UTC')::date, t.currency_id, t.type, t.status,
      side.internal, sum(t.sign), sum(t.sign * t.amount_minor), sum(t.sign * t.commission_minor)
    from (${signed}) as t
    ${walletSidesSql}
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 4, 5, 6, 3
    on conflict (wallet_id, day, type, status, internal, currency_id) do update
      set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
        commission_minor = h.commission_minor + excluded.commission_minor`;
}
