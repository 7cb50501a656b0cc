import { activateVoucher, createCheckout, transferFunds } from "@purse/engine";
import { z } from "zod";
import { authedProcedure, publicProcedure } from "../trpc.ts";
import { decimal } from "./schemas.ts";

export const transfer = authedProcedure
  .input(
    z.object({
      walletFrom: z.string(),
      walletTo: z.string(),
      amount: decimal,
      paymentId: z.string().nullish(),
      description: z.string().nullish(),
      idempotencyKey: z.string().nullish(),
    }),
  )
  .output(z.object({ id: z.number(), message: z.string(), replayed: z.boolean() }))
  .mutation(({ ctx, input }) => transferFunds(ctx.deps, ctx.actor, input));

/** Authenticated by its signature, as in REST. */
export const checkout = publicProcedure
  .input(
    z.object({
      walletTo: z.string(),
      walletFrom: z.string(),
      amount: decimal,
      id: z.string(),
      signature: z.string(),
      successUrl: z.string().nullish(),
      cancelUrl: z.string().nullish(),
      statusUrl: z.string().nullish(),
      userInfo: z.string(),
    }),
  )
  .output(z.object({ url: z.string(), expiredAt: z.string() }))
  .mutation(({ ctx, input }) => createCheckout(ctx.deps, input));

export const activate = authedProcedure
  .input(
    z.object({
      voucherNumber: z.string(),
      voucherCode: z.string(),
      walletTo: z.string(),
      additional: z.string().nullish(),
      idempotencyKey: z.string().nullish(),
    }),
  )
  .output(z.object({ message: z.string(), transactionId: z.number() }))
  .mutation(({ ctx, input }) => activateVoucher(ctx.deps, ctx.actor, input));
