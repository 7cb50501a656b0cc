import { listRates } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";
import { envelope } from "../schemas/common.ts";
import { toNumber } from "../schemas/present.ts";

/** GET /api/currencies/rates: public, no token. */
export const registerRates: RegisterRoute = (app, deps) => {
  app.get(
    "/api/currencies/rates",
    {
      schema: {
        tags: ["Currencies"],
        summary: "Currency exchange rates",
        response: {
          200: envelope(
            z.array(
              z.object({ name: z.string(), group: z.string(), value: z.number() }).meta({ id: "Rate" }),
            ),
          ),
        },
      },
    },
    async () => ({
      status: true as const,
      data: (await listRates(deps)).map((rate) => ({
        name: rate.name,
        group: rate.group,
        value: toNumber(rate.value),
      })),
    }),
  );
};
