import { z } from "zod";
import { boundedText } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";

/** A currency as the wallet lookups carry it (REST's `LookupCurrency`: no limits, no icon). */
export const lookupCurrencyContract = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  rate: z.string().describe("Exchange rate (USD per unit)"),
  prefix: z.string(),
});

/** Another user's active wallet, as much as a payer needs to address it. */
export const foundWalletContract = z.object({
  id: z.number(),
  number: z.string(),
  currency: lookupCurrencyContract,
});

export const walletSearchContract = z.object({
  number: boundedText(inputBounds.walletNumber).describe("Another user's wallet number"),
});

/**
 * Both wallets of a future operation. Each number may be left out: a missing one is a lookup of
 * nothing, Not found like any other miss, on every door.
 */
export const walletPairRequestContract = z.object({
  numberTo: boundedText(inputBounds.walletNumber).optional().describe("The caller's own wallet number"),
  numberFrom: boundedText(inputBounds.walletNumber).optional().describe("The other user's wallet number"),
});

export const walletPairContract = z.object({
  walletToId: z.number(),
  numberTo: z.string().describe("The caller's wallet"),
  walletFromId: z.number(),
  numberFrom: z.string().describe("The other user's wallet"),
  currency: lookupCurrencyContract,
});
