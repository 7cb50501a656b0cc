import { walletContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";
import { listCurrencySchema } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";

const fields = walletContract.shape;

/**
 * The engine's wallet contract under the specification's names and order (`amountLimit` next to
 * `active_amount`, as clients read them), amounts as JSON numbers; `userId` (always the caller) left out.
 */
const wallet = z
  .object({
    id: fields.id,
    amount: asJsonNumber(fields.amount),
    amountLimit: asJsonNumber(fields.amountLimit),
    status: fields.status,
    number: fields.number,
    currency: listCurrencySchema,
    active_amount: asJsonNumber(fields.activeAmount),
    can_use_for_deposit_api_out: fields.canUseForDepositApiOut,
    can_use_for_withdraw_api_out: fields.canUseForWithdrawApiOut,
  })
  .meta({ id: "Wallet" });

export type Wallet = z.infer<typeof wallet>;

export const listWalletsResponses = {
  200: envelope(z.array(wallet)).describe("The caller's wallets (deleted ones left out)"),
  ...bearerErrors,
} as const;
