import { z } from "zod";

/** Exact decimal text: amounts never travel as floats. */
export const decimal = z.string().describe('Exact decimal, e.g. "10.50"');

const transactionType = z.enum(["TRANSFER", "DEPOSIT", "WITHDRAW"]);
const transactionStatus = z.enum(["PENDING", "FAIL", "SUCCESS", "CANCEL"]);

export const transactionNode = z.object({
  id: z.number(),
  externalId: z.string().nullable(),
  type: transactionType,
  status: transactionStatus,
  label: z.string(),
  amount: decimal,
  commission: decimal,
  amountFrom: decimal,
  amountTo: decimal,
  currencyId: z.number(),
  /** The currency's code, e.g. "USD". */
  currency: z.string(),
  walletFromId: z.number().nullable(),
  walletToId: z.number().nullable(),
  /** The wallets' numbers, e.g. "U100000010" (the other party's too). */
  walletFrom: z.string().nullable(),
  walletTo: z.string().nullable(),
  description: z.string(),
  createdAt: z.string(),
});
