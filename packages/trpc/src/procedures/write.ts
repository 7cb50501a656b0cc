import { checkoutContract, checkoutLinkContract, createCheckout } from "@purse/engine";
import { publicProcedure } from "../trpc.ts";

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
