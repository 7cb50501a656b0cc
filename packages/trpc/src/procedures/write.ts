import {
  checkoutContract,
  checkoutLinkContract,
  createCheckout,
  idempotencyKeyOf,
  transferContract,
  transferFunds,
  transferResultContract,
} from "@purse/engine";
import { publicProcedure, userProcedure } from "../trpc.ts";

export const transfer = userProcedure
  .input(transferContract)
  .output(transferResultContract)
  .mutation(({ ctx, input }) =>
    transferFunds(ctx.deps, ctx.actor, {
      ...input,
      idempotencyKey: idempotencyKeyOf(input.idempotencyKey, ctx.idempotencyKey),
    }),
  );

/** Authenticated by its signature, as in REST. */
export const checkout = publicProcedure
  .input(checkoutContract)
  .output(checkoutLinkContract)
  .mutation(({ ctx, input }) =>
    createCheckout(ctx.deps, {
      ...input,
      amount: String(input.amount),
      id: String(input.id),
      sentAsNumber: { amount: typeof input.amount === "number", id: typeof input.id === "number" },
      clientAddress: ctx.clientAddress ?? null,
    }),
  );
