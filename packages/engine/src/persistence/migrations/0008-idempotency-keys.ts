import { Migration } from "@mikro-orm/migrations";

/**
 * The `Idempotency-Key` header's records get a table of their own, pruned after
 * PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS (retention/prune-tables.ts). Until now a key lived only on
 * the ledger row it produced, inside the row's hash (migration 0005), so it could never be pruned
 * nor reused. From now on an API movement writes its key here and leaves the ledger column null;
 * operator keys (`--key`) stay on the ledger row, attributed and kept. `payment_id` (`external_id`)
 * is not touched: the specification keeps it unique for good ("Order id is not unique").
 *
 * Keys already on the ledger are copied with their transaction's time, so they age out like new
 * ones; the ledger rows keep theirs (their hash covers them; `purse audit` stays green).
 */
export class Migration0008IdempotencyKeys extends Migration {
  override name = "0008-idempotency-keys";

  override up(): void {
    this.addSql(`create table idempotency_keys (
      user_id bigint not null,
      key text not null,
      transaction_id bigint not null,
      request_hash text null,
      created_at timestamptz not null default now(),
      constraint idempotency_keys_pkey primary key (user_id, key),
      constraint idempotency_keys_user_id_fkey foreign key (user_id) references users (id),
      constraint idempotency_keys_transaction_id_fkey foreign key (transaction_id) references transactions (id)
    )`);
    this.addSql("create index idempotency_keys_created_at_idx on idempotency_keys (created_at)");
    this.addSql(`insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
      select user_id, idempotency_key, id, request_hash, created_at from transactions
      where idempotency_key is not null and operator is null`);
  }
}
