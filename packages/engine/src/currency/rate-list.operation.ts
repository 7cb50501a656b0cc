import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import type { ContractShape } from "../input/contract-fields.ts";
import { listRates, type RateView } from "./list-rates.ts";

/** One exchange rate (REST sends the value as a JSON number). */
const rateContract = z.object({
  name: z.string().describe("Currency pair, e.g. USD/EUR"),
  group: z.string().describe("Base currency group"),
  value: z.string().describe("The rate, exact decimal"),
} satisfies ContractShape<RateView>);

/** GET /api/currencies/rates, GraphQL `rates`, tRPC `rates`: the exchange rates, to anyone. */
export const rateListOperation = defineOperation({
  name: "rates",
  kind: "query",
  description: "Exchange rates",
  // Published without a token on every door, as the specification lists the rates.
  scope: "public",
  input: null,
  output: z.array(rateContract),
  errors: [],
  run: (deps) => listRates(deps),
});
