import { z } from "zod";
import { boundedText } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";

/** One of the caller's transactions, by internal id or by the caller's own id (at least one). */
export const transactionLookupContract = z.object({
  id: z.number().int().positive().nullish().describe("Internal transaction id"),
  externalId: boundedText(inputBounds.identifier)
    .nullish()
    .describe("Your own id (the transfer's payment_id)"),
});
