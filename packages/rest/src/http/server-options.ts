import type { FastifyServerOptions } from "fastify";
import { answerClientError } from "./client-error.ts";
import { answerFrameworkError } from "./error-handling.ts";

/**
 * Host options any server carrying the REST API needs (buildRestApp and the server's buildServer):
 * `//token` and `/api//wallets` (a base URL with a trailing slash joined to a path) and
 * `/api/wallets/` reach their routes; path parameters may be long enough for batched tRPC calls;
 * the router's own refusals (bad percent-encoding, over-long parameters) and the HTTP parser's
 * (oversized headers or query strings) answer in the contract's shape.
 */
export const restServerOptions = {
  routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true, maxParamLength: 5000 },
  frameworkErrors: answerFrameworkError,
  clientErrorHandler: answerClientError,
} satisfies FastifyServerOptions;
