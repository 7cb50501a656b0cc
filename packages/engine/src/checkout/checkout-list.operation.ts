import { defineOperation } from "../declaration/declare-operation.ts";
import { checkoutListContract, checkoutPageContract } from "./checkout-list.contract.ts";
import { listCheckouts, maxCheckoutListLimit } from "./list-checkouts.ts";

/**
 * GraphQL `checkouts(status:, limit:, before:)`, tRPC `checkouts`: the caller's checkouts, newest
 * first. REST has none: the specification lists no checkouts (merchants learn outcomes from the
 * webhook).
 */
export const checkoutListOperation = defineOperation({
  name: "checkouts",
  kind: "query",
  description: `The caller's checkouts, newest first (needs a token); at most ${maxCheckoutListLimit}`,
  scope: "user",
  // May be left out: `checkouts()` asks for the newest 50.
  input: checkoutListContract.optional(),
  output: checkoutPageContract,
  errors: ["OUT_OF_RANGE"],
  run: (deps, actor, input) =>
    listCheckouts(deps, actor, {
      status: input?.status ?? null,
      limit: input?.limit ?? null,
      paymentId: input?.before ?? null,
    }),
});
