import { recordMovement } from "../ledger/record-movement.ts";
import {
  TransactionStatus,
  type TransactionStatusCode,
  TransactionType,
} from "../ledger/transaction-codes.ts";
import type { SqlRunner } from "../persistence/sql.ts";
import { insertVoucher, type VoucherInsert } from "./voucher-store.ts";

export interface NewVoucher extends VoucherInsert {
  /** The purchase's status; only a completed purchase of a pending voucher holds value. */
  readonly purchaseStatus: TransactionStatusCode;
}

/**
 * Stores an issued or seeded voucher with its purchase transaction. A paid, pending voucher's value
 * moves from equity to the voucher account, from which activation later pays. (A voucher bought
 * through the API pays from the buyer's wallet instead: `buy-voucher.ts`.)
 */
export async function recordVoucher(em: SqlRunner, voucher: NewVoucher): Promise<void> {
  const amount = voucher.amountMinor;
  const held = voucher.purchaseStatus === TransactionStatus.SUCCESS && voucher.status === 0;
  const purchase = await recordMovement(em, {
    userId: voucher.creatorUserId,
    type: TransactionType.TRANSFER,
    status: voucher.purchaseStatus,
    label: "Voucher purchase",
    walletFromId: null,
    walletToId: null,
    currencyId: voucher.currencyId,
    amountMinor: amount,
    commissionMinor: 0n,
    amountFromMinor: amount,
    amountToMinor: amount,
    description: `Voucher ${voucher.number}`,
    legs: held
      ? [
          { account: "equity", amountMinor: -amount },
          { account: "voucher", amountMinor: amount },
        ]
      : [],
  });
  await insertVoucher(em, voucher, purchase.id);
}
