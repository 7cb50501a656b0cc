import { listRates } from "@purse/engine";
import type { RegisterRoute } from "../http/route-context.ts";
import { ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { listRatesResponses } from "./list-rates.schemas.ts";

/** GET /api/currencies/rates: public, no token. */
export const registerListRates: RegisterRoute = (app, deps) => {
  app.get(
    "/api/currencies/rates",
    {
      schema: {
        operationId: "listRates",
        tags: ["Currencies"],
        summary: "Currency exchange rates",
        response: listRatesResponses,
      },
    },
    async () => {
      const rates = await listRates(deps);
      return ok(rates.map((rate) => ({ name: rate.name, group: rate.group, value: toNumber(rate.value) })));
    },
  );
};
