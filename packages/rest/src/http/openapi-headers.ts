import { type AnyOperation, errorCatalogue } from "@purse/engine";
import type { OpenAPIV3_1 } from "openapi-types";
import { operationRoutes } from "../routes/operation-routes.generated.ts";
import { replayedHeader } from "./call-context.ts";
import { retryAfterSeconds } from "./error-handling.ts";

type HeaderName = "RetryAfter" | "RateLimitRetryAfter" | "IdempotentReplayed";

/** The response headers the document describes once and refers to (`#/components/headers/...`). */
export const answerHeaderComponents: Readonly<Record<HeaderName, OpenAPIV3_1.HeaderObject>> = {
  RetryAfter: {
    description: `Seconds to wait before trying again (${retryAfterSeconds} while the service is unavailable)`,
    schema: { type: "integer", minimum: 1 },
  },
  RateLimitRetryAfter: {
    description:
      `With ${errorCatalogue.RATE_LIMITED.message} (code RATE_LIMITED) only: the seconds, rounded up, until ` +
      "the rate limit's sliding window admits this call again",
    schema: { type: "integer", minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      "`true` when this answer repeats the first answer to the same Idempotency-Key or payment_id (same " +
      "transaction, nothing moved this time); absent on the call that did the work",
    schema: { type: "string", enum: ["true"] },
  },
};

interface ResponseLike {
  headers?: Record<string, unknown>;
}

interface OperationLike {
  operationId?: string;
  responses?: Record<string, ResponseLike>;
}

/** Each REST operation id (aliases too) and the engine operation its route publishes. */
const declaredById = new Map<string, AnyOperation>(
  Object.values(operationRoutes).flatMap((route) =>
    route.operationIds.map((id) => [id, route.operation] as const),
  ),
);

/**
 * The headers each answer carries, on the responses that carry them: `Retry-After` on every 503
 * and on /token's 429, and on the 422 of an operation that may be rate-limited;
 * `Idempotent-Replayed` on the success of an operation that replays (an idempotency key).
 */
export function addAnswerHeaders(paths: unknown): void {
  if (typeof paths !== "object" || paths === null) return;
  for (const item of Object.values(paths as Record<string, Record<string, OperationLike>>)) {
    for (const operation of Object.values(item)) {
      const declared = operation.operationId ? declaredById.get(operation.operationId) : undefined;
      const responses = operation.responses ?? {};
      const add = (status: string, header: string, component: HeaderName) => {
        const response = responses[status];
        if (!response) return;
        response.headers = { ...response.headers, [header]: { $ref: `#/components/headers/${component}` } };
      };
      add("503", "Retry-After", "RetryAfter");
      add("429", "Retry-After", "RetryAfter");
      if (declared?.errors.includes("RATE_LIMITED")) add("422", "Retry-After", "RateLimitRetryAfter");
      if (declared?.idempotencyKey) add("200", replayedHeader, "IdempotentReplayed");
    }
  }
}
