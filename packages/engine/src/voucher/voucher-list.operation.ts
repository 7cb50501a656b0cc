import { defineOperation } from "../declaration/declare-operation.ts";
import { listVouchers } from "./list-vouchers.ts";
import { voucherListContract, voucherPageContract } from "./voucher-list.contract.ts";

/** GET /api/vouchers?page=N, GraphQL `vouchers(page:)`, tRPC `vouchers`: the caller's purchased vouchers. */
export const voucherListOperation = defineOperation({
  name: "vouchers",
  kind: "query",
  description: "One page of the caller's vouchers",
  scope: "user",
  // May be left out: `vouchers()` asks for the first page.
  input: voucherListContract.optional(),
  output: voucherPageContract,
  errors: [],
  // REST's query string carries the page as text, which the use case reads as it reads a number.
  run: (deps, actor, input) => listVouchers(deps, actor, { page: input?.page ?? null }),
});
