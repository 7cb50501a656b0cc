import { Migration } from "@mikro-orm/migrations";

/**
 * An operator's idempotency keys in a table of their own (issue 39, docs/sharding.md "What is
 * left"): `operator_keys (key, transaction_id, request_hash)`, written by the movement that uses
 * the key, in its statement (ledger/ledger-write-store.ts, citus-ledger-write-store.ts), and read
 * by the next movement that names it (ledger/movement-store.ts).
 *
 * A key was kept on the operator's ledger row alone, unique by `transactions_operator_key_uq`. On
 * Citus, where `transactions` is distributed by owner, that unique holds within a shard only (the
 * distribution column appended), so two movements of two owners could use one key, and each
 * lookup read every shard. As a reference table (`purse citus distribute`), `operator_keys` gives
 * the key its uniqueness across owners back and is read from the coordinator's own copy. On plain
 * PostgreSQL and PGlite the ledger's unique index stays; this table is read there too.
 *
 * Backfilled from the operators' ledger rows there are; no foreign key (a reference table may not
 * point at a distributed one). Runs in both schemas.
 */
export class Migration0025OperatorKeys extends Migration {
  override name = "0025-operator-keys";

  override up(): void {
    this.addSql(`create table operator_keys (
      key text primary key,
      transaction_id bigint not null,
      request_hash text
    )`);
    this.addSql(`insert into operator_keys (key, transaction_id, request_hash)
      select idempotency_key, id, request_hash from transactions
      where operator is not null and idempotency_key is not null`);
  }
}
