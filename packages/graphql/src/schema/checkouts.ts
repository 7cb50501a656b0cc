import { builder } from "../builder.ts";

/** The checkout list's status, argument and field (`checkouts`, a declared operation). */
export const CheckoutStatus = builder.enumType("CheckoutStatus", {
  description: "PENDING: the link is open; SUCCESS: paid; CANCEL: the payer cancelled; FAIL: expired unpaid",
  values: ["PENDING", "SUCCESS", "CANCEL", "FAIL"] as const,
});
