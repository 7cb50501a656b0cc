import { rateListOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const rate = rateListOperation.output.element.shape;

/** GET /api/currencies/rates: every exchange rate, to anyone, the value as a JSON number. */
export const listRatesRoute = operationRoute(rateListOperation, {
  method: "GET",
  url: "/api/currencies/rates",
  operationId: "listRates",
  tags: ["Currencies"],
  summary: "Currency exchange rates",
  answer: z.array(
    z
      .object({ name: rate.name, group: rate.group, value: asJsonNumber(rate.value).describe("Rate") })
      .meta({ id: "Rate" }),
  ),
  input: () => undefined,
  output: (rates) => rates.map(({ name, group, value }) => ({ name, group, value: toNumber(value) })),
  fields: {},
});
