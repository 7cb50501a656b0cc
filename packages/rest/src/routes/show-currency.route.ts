import { currencyShowOperation } from "@purse/engine";
import { z } from "zod";
import { currencyListItem, currencyListItemOf } from "./currency-listing.wire.ts";
import { operationRoute } from "./operation-route.ts";

/** GET /api/currencies/{code}: one enabled currency (a disabled or unknown code: Not found). */
export const showCurrencyRoute = operationRoute(currencyShowOperation, {
  method: "GET",
  url: "/api/currencies/:code",
  operationId: "showCurrency",
  tags: ["Currencies"],
  summary: "One enabled currency with its rate and decimal places",
  params: z.object({ code: currencyShowOperation.input.shape.code }),
  answer: currencyListItem,
  input: ({ params }) => ({ code: params.code }),
  output: currencyListItemOf,
  fields: { code: "code" },
});
