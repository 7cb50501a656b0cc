import type { CallContext } from "@purse/engine";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** The engine answered an earlier request's result again (a repeated Idempotency-Key or payment_id). */
    answerReplayed: boolean;
  }
}

/** Stripe's name for it: the answer is an earlier request's, and nothing moved this time. */
export const replayedHeader = "Idempotent-Replayed";

/** What a declared operation's `run` is told of a REST request, and how it tells a replay back. */
export function callContextOf(request: FastifyRequest): CallContext {
  return {
    clientAddress: request.ip,
    amountSentAsNumber: request.amountSentAsNumber,
    replayed: () => {
      request.answerReplayed = true;
    },
  };
}

/**
 * `Idempotent-Replayed: true` on a replayed answer, set as it leaves, so only a success carries
 * it: a use case may still refuse after the pipeline found the earlier request (a voucher
 * purchase's key that bought no voucher: Order id is not unique).
 */
export function announceReplays(app: FastifyInstance): void {
  app.decorateRequest("answerReplayed", false);
  // A hook with nothing to await takes `done`: an async hook costs a promise per request.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.answerReplayed && reply.statusCode < 300) reply.header(replayedHeader, "true");
    done(null, payload);
  });
}
