import { authedProcedure } from "../trpc.ts";

/** Committed changes to the caller's transactions, from any Purse process (SSE). */
export const transactionUpdated = authedProcedure.subscription(async function* ({ ctx, signal }) {
  for await (const event of ctx.deps.events.subscribe(signal)) {
    if (event.userIds.includes(ctx.actor.userId)) {
      yield { transactionId: event.transactionId, type: event.type, status: event.status, at: event.at };
    }
  }
});
