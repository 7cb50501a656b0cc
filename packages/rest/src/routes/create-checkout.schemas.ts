import { checkoutContract, checkoutLinkContract } from "@purse/engine";
import { z } from "zod";
import { bodyErrors, envelope, errorSchema } from "../schemas/common.ts";
import { snakeCased } from "../schemas/from-contract.ts";

/**
 * The engine's checkout contract by REST's names: all strings in the specification; `id` and
 * `amount` are also accepted as bare numbers.
 */
export const createCheckoutBody = z.object(snakeCased(checkoutContract.shape));

export const checkoutCreated = envelope(z.object(snakeCased(checkoutLinkContract.shape))).describe(
  "The payment link",
);

export const createCheckoutResponses = {
  200: checkoutCreated,
  ...bodyErrors,
  422: errorSchema.describe(
    "Signature not identical, Order id is not unique, Wallet to/from not exists, amount errors, " +
      "Currencies are not equals, Currency is disabled, Direction not active, User is blocked",
  ),
} as const;
