import { randomBytes } from "node:crypto";
import { userIdByLogin } from "../auth/user-store.ts";
import { findCurrencyByCode } from "../currency/currency-store.ts";
import { PurseError } from "../errors/index.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { TransactionStatus } from "../ledger/transaction-codes.ts";
import { parseAmount } from "../money/index.ts";
import type { Database } from "../persistence/database.ts";
import { recordVoucher } from "../voucher/record-voucher.ts";
import { sealVoucherCode } from "../voucher/voucher-code.ts";
import { setCurrencyColumn } from "./admin-store.ts";

/** Operator switches on a currency (the `purse currencies` command). */
export async function setCurrencyFlag(
  db: Database,
  code: string,
  flag: "enabled" | "checkout" | "transfer",
  on: boolean,
): Promise<void> {
  const column = (
    { enabled: "enabled", checkout: "checkout_enabled", transfer: "transfer_enabled" } as const
  )[flag];
  if (!(await setCurrencyColumn(db.em(), code, column, on))) throw new PurseError("NOT_FOUND");
}

export interface IssuedVoucher {
  readonly number: string;
  readonly code: string;
}

/**
 * Issues a paid voucher: its value moves from equity to the voucher account, from which activation
 * later pays. The code is returned, and stored sealed (its buyer can list it again).
 */
export async function issueVoucher(
  db: Database,
  box: SecretBox,
  voucher: { currency: string; amount: string; type: 1 | 2; creatorLogin: string; expiresAt: Date },
): Promise<IssuedVoucher> {
  const creatorId = await userIdByLogin(db, voucher.creatorLogin);
  const issued = {
    number: `V-${randomBytes(4).toString("hex").toUpperCase()}`,
    code: [0, 1, 2].map(() => randomBytes(2).readUInt16BE(0).toString().padStart(5, "0").slice(-4)).join("-"),
  };
  // Asked before the unit of work, which then knows the movement's form: on Citus its recursive
  // sealing statement is refused, and the per-owner one must be written instead (citus-routing.ts).
  await db.distributed();
  await db.em().transactional(async (em) => {
    const currency = await findCurrencyByCode(em, voucher.currency);
    if (!currency) throw new PurseError("NOT_FOUND", "currency");
    const amount = parseAmount(voucher.amount, currency.precession);
    await recordVoucher(em, {
      number: issued.number,
      code: { codeSealed: sealVoucherCode(box, issued.number, issued.code), codeHash: null },
      currencyId: currency.id,
      amountMinor: amount,
      type: voucher.type,
      status: 0,
      expiresAt: voucher.expiresAt,
      creatorUserId: creatorId,
      purchaseStatus: TransactionStatus.SUCCESS,
    });
  });
  return issued;
}
