import { eventsWhileAuthorized, type TransactionEvent } from "@purse/engine";
import { builder } from "../builder.ts";

const TransactionUpdate = builder.objectRef<TransactionEvent>("TransactionUpdate").implement({
  fields: (t) => ({
    transactionId: t.exposeInt("transactionId"),
    type: t.int({ resolve: (event) => event.type, description: "TRANSFER=1, DEPOSIT=2, WITHDRAW=3" }),
    status: t.int({
      resolve: (event) => event.status,
      description: "PENDING=1, FAIL=2, SUCCESS=3, CANCEL=4",
    }),
    at: t.exposeString("at"),
  }),
});

builder.subscriptionFields((t) => ({
  transactionUpdated: t.field({
    type: TransactionUpdate,
    description: "Committed changes to the caller's transactions, from any Purse process",
    subscribe: async function* (_root, _args, ctx) {
      const actor = await ctx.actor();
      const abort = new AbortController();
      try {
        // The bus hands over only this user's events, and only while the caller's token stays good.
        yield* eventsWhileAuthorized(ctx.deps, ctx.token, actor, abort.signal);
      } finally {
        abort.abort();
      }
    },
    resolve: (event) => event,
  }),
}));
