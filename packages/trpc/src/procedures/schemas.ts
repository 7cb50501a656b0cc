import { z } from "zod";

/** Exact decimal text: amounts never travel as floats. */
export const decimal = z.string().describe('Exact decimal, e.g. "10.50"');

export const currency = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  rate: decimal,
  icon: z.string(),
  precession: z.number(),
  prefix: z.string(),
  minAmount: decimal,
  maxAmount: decimal,
});

export const wallet = z.object({
  id: z.number(),
  number: z.string(),
  userId: z.number(),
  amount: decimal,
  amountLimit: decimal,
  activeAmount: decimal,
  status: z.number(),
  canUseForDepositApiOut: z.boolean(),
  canUseForWithdrawApiOut: z.boolean(),
  currency,
});

export const transactionType = z.enum(["TRANSFER", "DEPOSIT", "WITHDRAW"]);
export const transactionStatus = z.enum(["PENDING", "FAIL", "SUCCESS", "CANCEL"]);

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
  walletFromId: z.number().nullable(),
  walletToId: z.number().nullable(),
  description: z.string(),
  createdAt: z.string(),
});
