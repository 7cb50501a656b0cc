import { Migration } from "@mikro-orm/migrations";

/**
 * Who owns a wallet number and a voucher number, in tables of their own (issue 39 item 1,
 * docs/sharding.md): `wallet_numbers (number, user_id, wallet_id)` and
 * `voucher_numbers (number, creator_user_id)`, written with the wallet or voucher row, before it
 * (admin/admin-store.ts, fixture/fixture-store.ts, voucher/voucher-store.ts).
 *
 * On plain PostgreSQL and PGlite nothing reads them: the unique numbers of `wallets` and `vouchers`
 * are what they were, and a transfer's statements are unchanged. On Citus, where
 * `purse citus distribute` makes them reference tables (a copy on every node), they give a number
 * its uniqueness across owners back (a distributed table's unique holds within a shard only), and
 * turn the lookup of a number's owner, which a row lock there needs first, from a read of every
 * shard into a read of the coordinator's own copy.
 *
 * No foreign keys: on Citus a reference table may not point at a distributed one. Backfilled from
 * the rows there are; runs in both schemas (test mode's wallets and vouchers have their own
 * numbers, so their own tables).
 */
export class Migration0022NumberOwners extends Migration {
  override name = "0022-number-owners";

  override up(): void {
    this.addSql(`create table wallet_numbers (
      number text primary key,
      user_id bigint not null,
      wallet_id bigint not null
    )`);
    this.addSql(
      "insert into wallet_numbers (number, user_id, wallet_id) select number, user_id, id from wallets",
    );
    this.addSql(`create table voucher_numbers (
      number text primary key,
      creator_user_id bigint not null
    )`);
    this.addSql(
      "insert into voucher_numbers (number, creator_user_id) select number, creator_user_id from vouchers",
    );
  }
}
