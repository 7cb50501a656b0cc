import {
  getVoucherInfo,
  listRates,
  searchTransactions,
  showTransaction,
  transactionLookupContract,
  transactionSearchContract,
  voucherInfoContract,
} from "@purse/engine";
import { z } from "zod";
import { merchantProcedure, publicProcedure, userProcedure } from "../trpc.ts";
import { decimal, transactionNode, transactionStatus, transactionType } from "./schemas.ts";

export const rates = publicProcedure
  .output(z.array(z.object({ name: z.string(), group: z.string(), value: decimal })))
  .query(({ ctx }) => listRates(ctx.deps));

/** The engine's search contract, paged by the last id seen. */
export const transactions = merchantProcedure
  .input(
    transactionSearchContract.extend({
      first: z.number().int().min(1).max(100).default(20),
      afterId: z.number().int().positive().nullish(),
    }),
  )
  .output(
    z.object({
      nodes: z.array(transactionNode),
      hasNextPage: z.boolean(),
      totals: z.array(
        z.object({
          currencyId: z.number(),
          currency: z.string(),
          count: z.number(),
          amount: decimal,
          commission: decimal,
        }),
      ),
    }),
  )
  .query(({ ctx, input }) =>
    searchTransactions(ctx.deps, ctx.actor, input, { first: input.first, afterId: input.afterId ?? null }),
  );

export const transaction = userProcedure
  .input(transactionLookupContract)
  .output(
    z.object({
      id: z.number(),
      externalId: z.string(),
      amount: decimal,
      commission: decimal,
      type: transactionType,
      // A cancelled payment is FAIL here; processingPay says CANCEL (as REST's detail).
      status: z.enum(["FAIL", "PENDING", "SUCCESS"]),
      currency: z.object({ id: z.number(), code: z.string(), precession: z.number() }),
      processingPay: z.object({
        paymentId: z.string(),
        signature: z.string(),
        transactionId: z.number(),
        walletFrom: z.string(),
        walletTo: z.string(),
        currencyTo: z.string(),
        currencyFrom: z.string(),
        amount: decimal,
        status: transactionStatus,
        cancel: z.boolean(),
      }),
    }),
  )
  .query(({ ctx, input }) =>
    showTransaction(ctx.deps, ctx.actor, { id: input.id ?? null, externalId: input.externalId ?? null }),
  );

export const voucher = userProcedure
  // Published as {number, code}: the contract's voucherNumber and voucherCode under those names.
  .input(
    z.object({
      number: voucherInfoContract.shape.voucherNumber,
      code: voucherInfoContract.shape.voucherCode,
    }),
  )
  .output(
    z.object({
      voucherNumber: z.string(),
      amount: decimal,
      commission: decimal,
      amountTo: decimal,
      currency: z.string(),
      status: z.number(),
      expiredAt: z.string(),
    }),
  )
  .query(({ ctx, input }) =>
    getVoucherInfo(ctx.deps, ctx.actor, { voucherNumber: input.number, voucherCode: input.code }),
  );
