import { authedProcedure } from "../trpc.ts";

/** Committed changes to the caller's transactions, from any Purse process (SSE). */
export const transactionUpdated = authedProcedure.subscription(async function* ({ ctx, signal }) {
  // The bus hands over only this user's events: nothing of anyone else is queued here.
  for await (const event of ctx.deps.events.subscribe(ctx.actor.userId, signal)) {
    yield { transactionId: event.transactionId, type: event.type, status: event.status, at: event.at };
  }
});
