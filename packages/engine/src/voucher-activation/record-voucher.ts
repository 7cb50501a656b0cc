import type { SqlEntityManager } from "@mikro-orm/sql";
import { recordMovement } from "../ledger/record-movement.ts";
import {
  TransactionStatus,
  type TransactionStatusCode,
  TransactionType,
} from "../ledger/transaction-codes.ts";
import { sql } from "../persistence/sql.ts";

export interface NewVoucher {
  readonly number: string;
  readonly codeHash: string;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly type: number;
  readonly status: number;
  readonly expiresAt: Date;
  readonly creatorUserId: number;
  /** The purchase's status; only a completed purchase of a pending voucher holds value. */
  readonly purchaseStatus: TransactionStatusCode;
}

/**
 * Stores a voucher with its purchase transaction. A paid, pending voucher's value moves from
 * equity to the voucher account, from which activation later pays.
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
  await sql`insert into vouchers (number, code_hash, currency_id, amount_minor, type, status, expired_at,
      creator_user_id, purchase_transaction_id)
    values (${voucher.number}, ${voucher.codeHash}, ${voucher.currencyId}, ${amount.toString()}, ${voucher.type},
      ${voucher.status}, ${voucher.expiresAt}, ${voucher.creatorUserId}, ${purchase.id})`.execute(
    em.getKysely(),
  );
}
