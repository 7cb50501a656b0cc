import { z } from "zod";
import { boundedText, type ContractShape } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { BalanceHistoryQuery, BalancePoint } from "./balance-history.ts";

/** Dates as text: the use case reads them and words the errors (`This value is not a valid date.`). */
const day = boundedText(40);

export const balanceHistoryRequestContract = z.object({
  wallet: boundedText(inputBounds.walletNumber),
  from: day.nullish(),
  until: day.nullish(),
} satisfies ContractShape<BalanceHistoryQuery>);

export const balancePointContract = z
  .object({
    day: z.string().describe("YYYY-MM-DD, UTC"),
    balance: z.string().describe("The balance at the end of the day (today: now), exact"),
  } satisfies ContractShape<BalancePoint>)
  .describe("A wallet's closing balance on one day");
