import { type Actor, eventsWhileAuthorized, transactionUpdate } from "@purse/engine";
import { claimSubscription, type TrpcContext, userProcedure } from "../trpc.ts";

/** Committed changes to the caller's transactions, from any Purse process (SSE, or a WebSocket). */
export const transactionUpdated = userProcedure.subscription(({ ctx, signal }) => {
  const release = claimSubscription(ctx, signal);
  return updates(ctx, signal, release);
});

async function* updates(
  ctx: TrpcContext & {
    readonly actor: Actor;
    readonly token: string | null;
    readonly liveDeps: TrpcContext["deps"];
  },
  signal: AbortSignal | undefined,
  release: () => void,
) {
  try {
    // The bus hands over only this user's events, and only while the caller's token stays good.
    // The events are of the caller's mode; the token is verified again in its own.
    for await (const event of eventsWhileAuthorized(
      ctx.liveDeps,
      ctx.token,
      ctx.actor,
      signal,
      ctx.deps.events,
    )) {
      // Type and status by name, as `transactions` gives them (contract: "Enum names"). Spelled out
      // as an object literal so the router's declared type carries the fields themselves, not a name
      // from the engine (purse-client's declarations bundle the router without the engine).
      const { transactionId, type, status, at } = transactionUpdate(event);
      yield { transactionId, type, status, at };
    }
  } finally {
    release();
  }
}
