import { z } from "zod";
import { type ContractShape, wholeNumberIn } from "../input/contract-fields.ts";
import { amountTotalsCap } from "./amount-totals-cap.ts";
import { flowTotalsCap } from "./flow-totals-store.ts";
import { transactionSearchContract } from "./transaction-search.contract.ts";
import type { TransactionNode, TransactionPage, TransactionTotal } from "./transaction-search.ts";

/** Exact decimal text: amounts never travel as floats. */
const decimalText = z.string().describe('Exact decimal, e.g. "10.50"');

/** One transaction as the search lists it. */
const transactionNodeContract = z.object({
  id: z.number(),
  externalId: z.string().nullable(),
  type: z.enum(["TRANSFER", "DEPOSIT", "WITHDRAW"]),
  status: z.enum(["PENDING", "FAIL", "SUCCESS", "CANCEL"]),
  label: z.string(),
  amount: decimalText,
  commission: decimalText,
  amountFrom: decimalText,
  amountTo: decimalText,
  currencyId: z.number(),
  currency: z.string().describe('The currency\'s code, e.g. "USD"'),
  walletFromId: z.number().nullable(),
  walletToId: z.number().nullable(),
  walletFrom: z
    .string()
    .nullable()
    .describe("The wallet's number, e.g. \"U100000010\" (the other party's too)"),
  walletTo: z.string().nullable(),
  description: z.string(),
  refundOf: z.number().nullable().describe("A refund's checkout transaction id; null for anything else"),
  createdAt: z.string().describe("ISO 8601, UTC"),
} satisfies ContractShape<TransactionNode>);

const transactionTotalContract = z
  .object({
    currencyId: z.number(),
    currency: z.string(),
    count: z.number(),
    amount: decimalText,
    commission: decimalText,
    exact: z
      .boolean()
      .describe(
        `Whether count, amount and commission are exact. False only under minAmount/maxAmount when more than ${amountTotalsCap} transactions match: they are then of ${amountTotalsCap} of them (at least), and a currency none of those is in is missing`,
      ),
    completed: z
      .number()
      .nullable()
      .describe(
        `How many of the matches completed (SUCCESS): the ones moneyIn and moneyOut add up. completed, moneyIn, moneyOut and net are exact, or null when more than ${flowTotalsCap} transactions match (narrow the filter)`,
      ),
    moneyIn: decimalText
      .nullable()
      .describe(
        "Money into the caller's wallets by the completed matches: the sum of their amountTo into the caller's wallets",
      ),
    moneyOut: decimalText
      .nullable()
      .describe(
        "Money out of the caller's wallets by the completed matches: the sum of their amountFrom out of the caller's wallets",
      ),
    net: decimalText.nullable().describe('moneyIn minus moneyOut, signed (e.g. "-12.50")'),
  } satisfies ContractShape<TransactionTotal>)
  // The published description stays as it was; the new fields describe themselves.
  .describe("Count and sums over the whole filtered set, per currency");

/** A page of the search, newest first, with the totals of everything the filter finds. */
export const transactionPageContract = z.object({
  nodes: z.array(transactionNodeContract),
  hasNextPage: z.boolean(),
  totals: z.array(transactionTotalContract),
} satisfies ContractShape<TransactionPage>);

/** The search's filter and its keyset page: how many, after which transaction (the last id seen). */
export const transactionSearchPageContract = transactionSearchContract.extend({
  first: wholeNumberIn(1, 100).default(20),
  afterId: z.number().int().positive().nullish(),
});
