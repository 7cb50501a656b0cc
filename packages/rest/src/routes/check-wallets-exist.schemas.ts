import { z } from "zod";
import { bearerErrors, envelope, maxLength, notFound, text } from "../schemas/common.ts";
import { lookupCurrencySchema } from "../schemas/currency.ts";

/** Both are needed; a missing one is a lookup of nothing, so Not found like any other miss. */
export const checkWalletsExistQuery = z.object({
  number_to: text(maxLength.walletNumber).optional().describe("The caller's own wallet number (required)"),
  number_from: text(maxLength.walletNumber).optional().describe("The other user's wallet number (required)"),
});

export const checkWalletsExistResponses = {
  200: envelope(
    z.object({
      wallet_to_id: z.number(),
      number_to: z.string().describe("The caller's wallet"),
      wallet_from_id: z.number(),
      number_from: z.string().describe("The other user's wallet"),
      currency: lookupCurrencySchema,
    }),
  ).describe("Both wallets exist and are active"),
  ...bearerErrors,
  ...notFound,
} as const;
