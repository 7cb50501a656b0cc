import type { SqlEntityManager } from "@mikro-orm/sql";
import { recordMovement } from "../ledger/record-movement.ts";
import {
  TransactionStatus,
  type TransactionStatusCode,
  TransactionType,
} from "../ledger/transaction-codes.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import type { StoredVoucherCode } from "./voucher-code.ts";

export interface VoucherRow {
  readonly number: string;
  /** Sealed with `sealVoucherCode` (new vouchers), or an scrypt hash (a caller that has no key). */
  readonly code: StoredVoucherCode;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly type: number;
  readonly status: number;
  readonly expiresAt: Date;
  readonly creatorUserId: number;
}

export interface NewVoucher extends VoucherRow {
  /** The purchase's status; only a completed purchase of a pending voucher holds value. */
  readonly purchaseStatus: TransactionStatusCode;
}

/**
 * Stores an issued or seeded voucher with its purchase transaction. A paid, pending voucher's value
 * moves from equity to the voucher account, from which activation later pays. (A voucher bought
 * through the API pays from the buyer's wallet instead: `voucher-purchase/buy-voucher.ts`.)
 */
export async function recordVoucher(em: SqlEntityManager, voucher: NewVoucher): Promise<void> {
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

/** The voucher row itself, pointing at the transaction that paid for it. */
export async function insertVoucher(
  em: SqlEntityManager,
  voucher: VoucherRow,
  purchaseTransactionId: number,
): Promise<number> {
  const row = await firstRow(
    em,
    sql<{ id: string }>`insert into vouchers (number, code_sealed, code_hash, currency_id,
      amount_minor, type, status, expired_at, creator_user_id, purchase_transaction_id)
    values (${voucher.number}, ${voucher.code.codeSealed}, ${voucher.code.codeHash}, ${voucher.currencyId},
      ${voucher.amountMinor.toString()}, ${voucher.type}, ${voucher.status}, ${voucher.expiresAt},
      ${voucher.creatorUserId}, ${purchaseTransactionId})
    returning id`,
  );
  if (!row) throw new Error("the voucher insert returned no row");
  return toId(row.id);
}
