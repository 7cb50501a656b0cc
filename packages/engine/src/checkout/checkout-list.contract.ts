import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import { type CheckoutListFilter, type CheckoutListItem, maxCheckoutListLimit } from "./list-checkouts.ts";

/** PENDING: the link is open; SUCCESS: paid; CANCEL: the payer cancelled; FAIL: expired unpaid. */
const checkoutStatus = z.enum(["PENDING", "SUCCESS", "CANCEL", "FAIL"]);

/** The door's names of the filter: `before` is the order id paged back from (`paymentId`). */
type CheckoutListRequest = Omit<CheckoutListFilter, "paymentId"> & { readonly before?: string | null };

/**
 * Which of the caller's checkouts: every field may be left out (the newest 50). The limit's range
 * is the use case's, so that a refusal names it (OUT_OF_RANGE), as it always has.
 */
export const checkoutListContract = z.object({
  status: checkoutStatus.nullish(),
  limit: z.number().int().nullish().describe(`1 to ${maxCheckoutListLimit}, default 50`),
  // Bounded as GraphQL has always bounded it; an order id is at most 64 characters, so a longer one
  // finds nothing.
  before: z
    .string()
    .max(128)
    .nullish()
    .describe("Only checkouts created before the one with this order id (the next page)"),
} satisfies ContractShape<CheckoutListRequest>);

/** One of the caller's checkouts, to reconcile orders. */
const checkoutListItemContract = z
  .object({
    paymentId: z.string().describe("The order id sent as `id` when the link was created"),
    userInfo: z.string(),
    status: checkoutStatus,
    amount: z.string().describe('Exact decimal, e.g. "25.00"'),
    commission: z.string().describe("Charged only when paid"),
    currency: z.string(),
    walletFrom: z.string(),
    walletTo: z.string(),
    transactionId: z.number().nullable().describe("The outcome's transaction; null while the link is open"),
    createdAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    expiredAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    completedAt: z.string().nullable().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    url: z
      .string()
      .nullable()
      .describe(
        "The payment link while the checkout is open, to send the payer again; null once paid, cancelled or expired, and for links created before Purse kept them",
      ),
    refunded: z
      .string()
      .nullable()
      .describe(
        'What was refunded of a paid checkout, exact decimal ("0.00" before any refund); null unless paid',
      ),
  } satisfies ContractShape<CheckoutListItem>)
  .describe("A payment link the caller created, with its outcome, to reconcile orders");

export const checkoutPageContract = z.array(checkoutListItemContract);
