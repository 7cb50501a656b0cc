import { activateVoucher, createCheckout, transferFunds } from "@purse/engine";
import { z } from "zod";
import { authedProcedure, publicProcedure } from "../trpc.ts";
import { bounded } from "./input-bounds.ts";

export const transfer = authedProcedure
  .input(
    z.object({
      walletFrom: bounded.walletNumber,
      walletTo: bounded.walletNumber,
      amount: bounded.amount,
      paymentId: bounded.identifier.nullish(),
      description: bounded.text.nullish(),
      idempotencyKey: bounded.identifier.nullish(),
    }),
  )
  .output(z.object({ id: z.number(), message: z.string(), replayed: z.boolean() }))
  .mutation(({ ctx, input }) => transferFunds(ctx.deps, ctx.actor, input));

/** Authenticated by its signature, as in REST. */
export const checkout = publicProcedure
  .input(
    z.object({
      walletTo: bounded.walletNumber,
      walletFrom: bounded.walletNumber,
      // A number sent may be signed as that number (docs/signing.md), so its kind is kept.
      amount: z.union([bounded.amount, z.number()]),
      id: z.union([bounded.identifier, z.number()]),
      signature: bounded.signature,
      successUrl: bounded.url.nullish(),
      cancelUrl: bounded.url.nullish(),
      statusUrl: bounded.url.nullish(),
      userInfo: bounded.text,
    }),
  )
  .output(z.object({ url: z.string(), expiredAt: z.string() }))
  .mutation(({ ctx, input }) =>
    createCheckout(ctx.deps, {
      ...input,
      amount: String(input.amount),
      id: String(input.id),
      sentAsNumber: { amount: typeof input.amount === "number", id: typeof input.id === "number" },
    }),
  );

export const activate = authedProcedure
  .input(
    z.object({
      voucherNumber: bounded.identifier,
      voucherCode: bounded.identifier,
      walletTo: bounded.walletNumber,
      additional: bounded.text.nullish(),
      idempotencyKey: bounded.identifier.nullish(),
    }),
  )
  .output(z.object({ message: z.string(), transactionId: z.number() }))
  .mutation(({ ctx, input }) => activateVoucher(ctx.deps, ctx.actor, input));
