import { z } from "zod";
import { bearerErrors, envelope, maxLength, notFound, text } from "../schemas/common.ts";
import { lookupCurrencySchema } from "../schemas/currency.ts";

export const searchWalletParams = z.object({
  wallet_number: text(maxLength.walletNumber).describe("Another user's wallet number"),
});

export const searchWalletResponses = {
  200: envelope(z.object({ id: z.number(), number: z.string(), currency: lookupCurrencySchema })).describe(
    "The wallet",
  ),
  ...bearerErrors,
  ...notFound,
} as const;
