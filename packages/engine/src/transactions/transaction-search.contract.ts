import { z } from "zod";
import { amountText, boundedText, type ContractShape } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { TransactionSearch } from "./transaction-search.ts";

/** An ISO 8601 date or date-time is at most a few dozen characters. */
const instantText = boundedText(40);

/**
 * The filter of the transaction search (GraphQL `TransactionFilter`, tRPC `transactions`): the
 * same search REST's history runs (`transactions/transaction-filter.ts`), with instants for bounds.
 * The declaration adds the keyset page (`transaction-page.contract.ts`), which GraphQL publishes
 * as a connection.
 */
export const transactionSearchContract = z.object({
  from: instantText.nullish().describe("ISO date or date-time, inclusive"),
  until: instantText.nullish().describe("ISO date or date-time, inclusive (a date means the whole day)"),
  walletNumber: boundedText(inputBounds.walletNumber).nullish(),
  type: z.enum(["TRANSFER", "DEPOSIT", "WITHDRAW"]).nullish(),
  status: z.enum(["PENDING", "FAIL", "SUCCESS", "CANCEL"]).nullish(),
  minAmount: amountText.nullish().describe("Decimal, in each transaction's currency"),
  maxAmount: amountText.nullish(),
} satisfies ContractShape<TransactionSearch>);
