import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import { currencyListingContract, publishedCurrencyListing } from "./currency-list.contract.ts";
import { showCurrency } from "./show-currency.ts";

/** A currency code as currencies are created with (the fixture's rule): 2 to 10 capitals or digits. */
const currencyLookupContract = z.object({
  code: z
    .string()
    .regex(/^[A-Z0-9]{2,10}$/)
    .describe("Currency code, e.g. USD (2 to 10 capital letters or digits)"),
});

/** GET /api/currencies/{code}, GraphQL `currency(code:)`, tRPC `currency`: one enabled currency. */
export const currencyShowOperation = defineOperation({
  name: "currency",
  kind: "query",
  description: "One enabled currency by code (a disabled or unknown code: Not found)",
  scope: "user",
  input: currencyLookupContract,
  output: currencyListingContract,
  errors: ["NOT_FOUND"],
  run: async (deps, actor, input) => publishedCurrencyListing(await showCurrency(deps, actor, input)),
});
