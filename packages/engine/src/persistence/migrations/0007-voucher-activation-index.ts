import { Migration } from "@mikro-orm/migrations";

/**
 * The history page and the transaction search join `vouchers` on `activation_transaction_id` to
 * show the voucher an activation redeemed. Without an index each page reads every voucher (a
 * sequential scan feeding a hash join); with it, one index probe per transaction on the page
 * (plans in docs/benchmark.md). Only activated vouchers have the column set.
 */
export class Migration0007VoucherActivationIndex extends Migration {
  override name = "0007-voucher-activation-index";

  override up(): void {
    this.addSql(
      "create index vouchers_activation_transaction_idx on vouchers (activation_transaction_id) where activation_transaction_id is not null",
    );
  }
}
