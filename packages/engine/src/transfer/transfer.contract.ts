import { z } from "zod";
import {
  type ContractShape,
  idempotencyKeyField,
  optionalText,
  paymentAmount,
  requiredText,
} from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { TransferResult } from "./transfer-funds.ts";
import type { TransferInput } from "./transfer-request.ts";

/** A transfer between two wallets of one currency: what every door accepts, by the engine's names. */
export const transferContract = z.object({
  walletFrom: requiredText(inputBounds.walletNumber).describe("Sender wallet number (the caller's)"),
  walletTo: requiredText(inputBounds.walletNumber).describe(
    "Recipient wallet number (another user's, same currency)",
  ),
  amount: paymentAmount.describe('Exact decimal, e.g. "10.50"'),
  paymentId: optionalText(inputBounds.identifier).describe(
    "Your id for the transfer (its external_id), at most 64 characters. Repeating it with the same " +
      "body returns the first result and moves nothing; with another body: Order id is not unique",
  ),
  description: optionalText(),
  idempotencyKey: idempotencyKeyField("Same key and same body: the first result again, no money moved"),
} satisfies ContractShape<TransferInput>);

/** What a transfer answers (REST's body leaves out `replayed`: the specification's has no such field). */
export const transferResultContract = z.object({
  id: z.number().describe("Transaction id"),
  message: z.string().describe("Confirmation of success"),
  replayed: z.boolean().describe("True when an earlier identical request was answered again"),
} satisfies ContractShape<TransferResult>);
