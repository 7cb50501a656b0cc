import { z } from "zod";
import { envelope, serverErrors } from "../schemas/common.ts";

const rate = z
  .object({
    name: z.string().describe("Currency pair, e.g. USD/EUR"),
    group: z.string().describe("Base currency group"),
    value: z.number().describe("Rate"),
  })
  .meta({ id: "Rate" });

export const listRatesResponses = {
  200: envelope(z.array(rate)).describe("Exchange rates"),
  ...serverErrors,
} as const;
