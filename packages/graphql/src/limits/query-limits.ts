import { GraphQLError } from "graphql";

/**
 * Every bound the GraphQL door applies, sized to the largest legal request: a dashboard page of
 * transactions with its filter, or a mutation with a 1 000-character description. Anything past
 * these is refused with a 400 before the engine is called.
 */
export const queryLimits = {
  /** Request body, bytes (the largest legal document plus variables is well under 16 KiB). */
  maxBodyBytes: 64 * 1024,
  /** Lexical tokens per document, counted by a flat loop before the recursive parser runs. */
  maxTokens: 2_000,
  /** Nesting of `{`, `[` and `(` in the document: selections and input values alike. */
  maxNesting: 16,
  /** Characters in one string literal of the document, and in one string variable. */
  maxStringLength: 2_048,
  /** Nesting of objects and arrays in `variables`. */
  maxVariableDepth: 8,
  maxDepth: 10,
  maxCost: 20_000,
  maxAliases: 15,
  maxDirectives: 20,
} as const;

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
