import { defineOperation, type RestWire } from "../declaration/declare-operation.ts";
import { listVouchers } from "./list-vouchers.ts";
import { voucherListContract, voucherPageContract } from "./voucher-list.contract.ts";

/** A purchased voucher on REST: the amount as a JSON number, as history items carry amounts. */
export const purchasedVoucherWire: RestWire = {
  component: "PurchasedVoucher",
  numbers: ["amount"],
  descriptions: { amount: "The voucher's value, as history items carry amounts" },
};

/** GET /api/vouchers?page=N, GraphQL `vouchers(page:)`, tRPC `vouchers`: the caller's purchased vouchers. */
export const voucherListOperation = defineOperation({
  kind: "query",
  description: "One page of the caller's vouchers",
  scope: "user",
  // May be left out: `vouchers()` asks for the first page.
  input: voucherListContract.optional(),
  output: voucherPageContract,
  errors: [],
  // REST's query string carries the page as text, which the use case reads as it reads a number.
  run: (deps, actor, input) => listVouchers(deps, actor, { page: input?.page ?? null }),
  rest: {
    method: "GET",
    path: "/api/vouchers",
    operationId: "listVouchers",
    tags: ["Vouchers"],
    summary: "The caller's purchased vouchers, newest first, with their codes",
    fields: {
      items: purchasedVoucherWire,
      meta: { names: "snake_case" },
    },
  },
  graphql: {
    field: "vouchers",
    type: "PurchasedVoucherPage",
    nested: { items: "PurchasedVoucher", meta: "PurchasedVoucherPageMeta" },
  },
  trpc: "vouchers",
});
