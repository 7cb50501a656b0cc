import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";
import { listCurrencySchema } from "../schemas/currency.ts";

const wallet = z
  .object({
    id: z.number(),
    amount: z.number().describe("Current balance"),
    amountLimit: z.number().describe("The most the wallet may hold"),
    status: z.number().describe("0 NEW, 1 ACTIVE (deleted wallets are not listed)"),
    number: z.string(),
    currency: listCurrencySchema,
    active_amount: z.number().describe("Usable balance"),
    can_use_for_deposit_api_out: z.boolean().describe("Checkouts may pay into it"),
    can_use_for_withdraw_api_out: z.boolean().describe("Transfers may leave it"),
  })
  .meta({ id: "Wallet" });

export type Wallet = z.infer<typeof wallet>;

export const listWalletsResponses = {
  200: envelope(z.array(wallet)).describe("The caller's wallets (deleted ones left out)"),
  ...bearerErrors,
} as const;
