import type { Database } from "@purse/engine";

/**
 * The migration docs/sharding.md proposes, applied to each shard of the simulation: a `clearing`
 * system account (no balance row, like fee and equity: the sum of its postings is money that left
 * this shard for another one, or arrived from one, and is not settled yet), and the outbox of
 * cross-shard transfers a shard sends, which the reconciler works through.
 */
export async function applyClearingSchema(db: Database): Promise<void> {
  await db.em().execute(`
    alter table postings drop constraint postings_account_check;
    alter table postings add constraint postings_account_check
      check (account in ('wallet', 'fee', 'equity', 'voucher', 'clearing'));
    create table cross_shard_transfers (
      transfer_key text primary key,
      target_shard text not null,
      wallet_from text not null,
      wallet_to text not null,
      currency_id integer not null references currencies (id),
      amount_minor bigint not null check (amount_minor > 0),
      debit_transaction_id bigint not null references transactions (id),
      credit_transaction_id bigint,
      status text not null default 'sent' check (status in ('sent', 'credited')),
      created_at timestamptz not null default now()
    );
    create index cross_shard_transfers_sent_idx on cross_shard_transfers (created_at) where status = 'sent';
  `);
}
