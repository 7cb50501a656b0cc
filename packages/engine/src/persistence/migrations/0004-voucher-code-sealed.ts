import { Migration } from "@mikro-orm/migrations";

/**
 * Voucher codes sealed (AES-256-GCM under the deployment key, bound to the voucher's number) instead
 * of hashed, so a buyer can read the codes of the vouchers they bought. Rows written before keep
 * their scrypt hash and are still verified by it: a hash cannot be turned back into the code, so
 * there is nothing to migrate them to. Every voucher keeps one of the two.
 *
 * The index serves a buyer's voucher list, newest first.
 */
export class Migration0004VoucherCodeSealed extends Migration {
  override name = "0004-voucher-code-sealed";

  override up(): void {
    this.addSql("alter table vouchers add column code_sealed text");
    this.addSql("alter table vouchers alter column code_hash drop not null");
    this.addSql(
      "alter table vouchers add constraint vouchers_code_kept check (code_sealed is not null or code_hash is not null)",
    );
    this.addSql("create index vouchers_creator_idx on vouchers (creator_user_id, created_at desc, id desc)");
  }
}
