import type { Actor } from "../auth/actor.ts";
import { authenticate, requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import type { TransactionEventBus } from "../events/transaction-event-types.ts";
import type { TransactionEvent } from "../events/transaction-events.ts";

/**
 * A subscriber's events (`subscriber`, as its token was verified when it subscribed) for as long as
 * that token stays good: each event is handed over only after
 * the token is verified again (the token cache answers, and a revocation, heard from any process,
 * empties it), so a revoked or expired token, or a blocked user, receives nothing more and the
 * stream ends. A token without the api scope (an operator's) is refused: Sorry scope missed.
 */
export async function* eventsWhileAuthorized(
  deps: EngineDependencies,
  token: string | null,
  subscriber: Actor,
  signal?: AbortSignal,
  /** Whose events: the token's own mode's, or test mode's for the dashboard's test-mode switch. */
  events: TransactionEventBus = deps.events,
): AsyncGenerator<TransactionEvent> {
  // The caller's own events need the api scope, as every REST route does (an operator token has not).
  requireAccess(subscriber);
  for await (const event of events.subscribe(subscriber.userId, signal)) {
    const actor = await authenticate(deps, token).catch(() => null);
    if (actor?.userId !== subscriber.userId) return;
    yield event;
  }
}
