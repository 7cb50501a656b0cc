import { request } from "./client.ts";
import { graphql } from "./graphql.ts";

// The dashboard's Refund action (docs/dashboard.md), on the public API's `refundCheckout`.

export const refundMutation = graphql(`
  mutation DashboardRefund($input: RefundCheckoutInput!) {
    refundCheckout(input: $input) {
      __typename
      ... on MutationRefundCheckoutSuccess { data { id amount refundable } }
      ... on PurseError { message }
    }
  }
`);

export type RefundOutcome =
  | { readonly ok: true; readonly amount: string; readonly refundable: string }
  | { readonly ok: false; readonly message: string };

/**
 * Refunds a paid checkout by its order id. The key makes a second click (or a retry after a lost
 * answer) the same refund, never a second one.
 */
export async function refundCheckout(input: {
  externalId: string;
  amount: string;
  reason: string;
  idempotencyKey: string;
}): Promise<RefundOutcome> {
  const { refundCheckout: result } = await request(refundMutation, { input });
  return result.__typename === "PurseError"
    ? { ok: false, message: result.message }
    : { ok: true, amount: result.data.amount, refundable: result.data.refundable };
}
