import { purchasedVoucherContract, voucherPurchaseContract } from "@purse/engine";
import { z } from "zod";
import { amountInput, bearerErrors, bodyErrors, envelope } from "../schemas/common.ts";
import { optionalParameter, snakeCased } from "../schemas/from-contract.ts";
import { declaredWire } from "./declared-operations.ts";

/** The voucher list's item (declared with it in the engine): a purchase answers the same. */
export const purchasedVoucher = declaredWire(purchasedVoucherContract);

/** A purchased voucher as REST sends it: the amount as a JSON number. */
export type PurchasedVoucher = Omit<z.output<typeof purchasedVoucherContract>, "amount"> & { amount: number };

const { idempotencyKey, ...fields } = voucherPurchaseContract.shape;

/** The engine's purchase contract by REST's names; REST also takes the amount as a JSON number. */
export const buyVoucherBody = z.object({ ...snakeCased(fields), amount: amountInput });

export const buyVoucherHeaders = z.looseObject({ "idempotency-key": optionalParameter(idempotencyKey) });

export const buyVoucherResponses = {
  200: envelope(purchasedVoucher.schema).describe(
    "Bought: the voucher with its code (or the first purchase again, for a repeated Idempotency-Key)",
  ),
  ...bodyErrors,
  ...bearerErrors,
} as const;
