import {
  activateVoucher,
  checkoutContract,
  createCheckout,
  transferContract,
  transferFunds,
  voucherActivationContract,
} from "@purse/engine";
import { z } from "zod";
import { authedProcedure, publicProcedure } from "../trpc.ts";

export const transfer = authedProcedure
  .input(transferContract)
  .output(z.object({ id: z.number(), message: z.string(), replayed: z.boolean() }))
  .mutation(({ ctx, input }) => transferFunds(ctx.deps, ctx.actor, input));

/** Authenticated by its signature, as in REST. */
export const checkout = publicProcedure
  .input(checkoutContract)
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
  .input(voucherActivationContract)
  .output(z.object({ message: z.string(), transactionId: z.number() }))
  .mutation(({ ctx, input }) => activateVoucher(ctx.deps, ctx.actor, input));
