import { z } from "zod";
import {
  bearerErrors,
  documentedAsRequired,
  envelope,
  maxLength,
  notFound,
  text,
} from "../schemas/common.ts";
import { lookupCurrencySchema } from "../schemas/currency.ts";

/**
 * Both are needed, and the document says so (a typed client requires them); at run time a missing
 * one is a lookup of nothing, so Not found like any other miss rather than a validation failure.
 */
export const checkWalletsExistQuery = z.object({
  number_to: documentedAsRequired(
    text(maxLength.walletNumber).optional().describe("The caller's own wallet number"),
  ),
  number_from: documentedAsRequired(
    text(maxLength.walletNumber).optional().describe("The other user's wallet number"),
  ),
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
