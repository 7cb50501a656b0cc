import { Migration } from "@mikro-orm/migrations";

/**
 * Refunds of paid checkouts (issue 36): each refund is its own transaction (WITHDRAW, SUCCESS,
 * from the merchant's wallet to the payer's) that names the checkout's transaction in
 * `refund_of`. A nullable column without a default is a change of the catalogue only, whatever
 * the table's size. The partial index serves the one question every refund asks under the
 * checkout's row lock (what has been refunded already) and the detail's `refunded`; only refunds
 * have the column set, so it stays as small as they are.
 *
 * The column is sealed into the transaction's hash when it is set (ledger/ledger-hash.ts), so
 * hashes of transactions written before it stay valid.
 */
export class Migration0016Refunds extends Migration {
  override name = "0016-refunds";

  override up(): void {
    this.addSql("alter table transactions add column refund_of bigint references transactions (id)");
    this.addSql(
      "create index transactions_refund_of_idx on transactions (refund_of) where refund_of is not null",
    );
  }
}
