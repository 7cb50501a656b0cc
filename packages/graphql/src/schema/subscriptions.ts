import { eventsWhileAuthorized, transactionUpdate, type TransactionUpdate as Update } from "@purse/engine";
import { builder } from "../builder.ts";
import { TransactionStatus, TransactionType } from "./transactions.ts";

/** Type and status by name, as the `transactions` query gives them (contract: "Enum names"). */
const TransactionUpdate = builder.objectRef<Update>("TransactionUpdate").implement({
  fields: (t) => ({
    transactionId: t.exposeInt("transactionId"),
    type: t.field({ type: TransactionType, resolve: (event) => event.type }),
    status: t.field({ type: TransactionStatus, resolve: (event) => event.status }),
    at: t.exposeString("at", { description: "When the change committed, ISO 8601 UTC" }),
  }),
});

builder.subscriptionFields((t) => ({
  transactionUpdated: t.field({
    type: TransactionUpdate,
    authScopes: { user: true },
    description: "Committed changes to the caller's transactions, from any Purse process",
    subscribe: async function* (_root, _args, ctx) {
      const { actor, deps } = await ctx.caller();
      const abort = new AbortController();
      try {
        // The bus hands over only this user's events, and only while the caller's token stays good;
        // the events are of the caller's mode (test mode's with the dashboard's switch on).
        yield* eventsWhileAuthorized(ctx.deps, ctx.token, actor, abort.signal, deps.events);
      } finally {
        abort.abort();
      }
    },
    resolve: (event) => transactionUpdate(event),
  }),
}));
