import { z } from "zod";
import {
  boundedText,
  type ContractShape,
  idempotencyKeyField,
  optionalText,
  requiredText,
} from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { VoucherActivation, VoucherActivationInput } from "./activate-voucher.ts";
import type { VoucherInfo } from "./voucher-info.ts";

const voucherNumber = requiredText(inputBounds.voucherNumber);
const voucherCode = requiredText(inputBounds.voucherCode).describe("The voucher's secret code");

/** Activating a voucher into one of the caller's USD wallets. */
export const voucherActivationContract = z.object({
  voucherNumber,
  voucherCode,
  walletTo: requiredText(inputBounds.walletNumber).describe("One of the caller's active USD wallets"),
  additional: optionalText().describe("Free text kept with the transaction"),
  idempotencyKey: idempotencyKeyField("Same key and same body: the first result again"),
} satisfies ContractShape<VoucherActivationInput>);

/**
 * The checks of an activation and its net amount, moving nothing: the voucher as GraphQL and tRPC
 * have always named it, `number` and `code` (REST: `voucher_number`, `voucher_code`).
 */
export const voucherInfoContract = z.object({ number: voucherNumber, code: voucherCode });

/** What the checks answer: the voucher, redeemable by the caller (REST sends the amounts as numbers). */
export const voucherInfoResultContract = z.object({
  voucherNumber: boundedText(inputBounds.voucherNumber),
  amount: z.string().describe("The voucher's value"),
  commission: z.string().describe("What activation keeps"),
  amountTo: z.string().describe("What activation credits: amount - commission"),
  currency: z.string().describe("Currency code"),
  status: z.number().describe("0 awaiting activation, 1 activated, 2 closed"),
  expiredAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
} satisfies ContractShape<VoucherInfo>);

/** What an activation answers (REST's body carries the message only, as the specification shows). */
export const voucherActivationResultContract = z.object({
  message: z.string().describe("Confirmation of voucher activation"),
  transactionId: z.number().describe("The activation's transaction id"),
} satisfies ContractShape<VoucherActivation>);
