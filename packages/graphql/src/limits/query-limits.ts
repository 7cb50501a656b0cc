import { GraphQLError } from "graphql";

export { queryLimits } from "./query-bounds.ts";

/**
 * A refusal of the request itself: `{"errors":[{"message":...}]}` with HTTP 400, also for
 * `application/json` clients (see `keepRequestErrorStatus`).
 */
export function requestRefused(message: string, code = "BAD_REQUEST"): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
}

/**
 * Yoga marks errors of parsing and validation `spec` and answers them with 200 under
 * `application/json` (the GraphQL-over-HTTP rule for that legacy media type). Purse answers every
 * request error with 400 whatever the client accepts, so a refusal is never mistaken for success.
 */
export function keepRequestErrorStatus(errors: readonly unknown[] | undefined): void {
  for (const error of errors ?? []) {
    const http = (error as { extensions?: { http?: { spec?: boolean } } } | null)?.extensions?.http;
    if (http?.spec) http.spec = false;
  }
}
