import { asPurseError, type EngineDependencies, PurseError, sessionCookieName } from "@purse/engine";
import { refusedFieldName } from "@purse/http-kernel";
import { useCookies } from "@whatwg-node/server-plugin-cookies";
import { GraphQLError } from "graphql";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { createContext, type GraphQLContext, type SessionCookie } from "./context.ts";
import { graphiqlOptions, graphiqlPolicyHeader, renderGraphiQLPage } from "./graphiql/graphiql-page.ts";
import { boundRequests } from "./limits/bound-requests.ts";
import { boundedDocumentCache, noErrorCache } from "./limits/document-cache.ts";
import { limitOperations } from "./limits/limit-operations.ts";
import { graphqlPath } from "./limits/query-bounds.ts";
import { markTestMode } from "./mode/mark-test-mode.ts";
import { purseSchema } from "./schema.ts";
import { credentialOf, refuseForgedSessionRequests } from "./session/session-guard.ts";

export interface GraphQLDoorOptions {
  /** Production: no field suggestions in errors, no GraphiQL. */
  readonly production: boolean;
  /** Anyone may load the whole schema (the embedded demo); otherwise authenticated callers only. */
  readonly openIntrospection: boolean;
  /** Serve GraphiQL to a browser at GET /graphql. */
  readonly graphiql: boolean;
}

const strictest: GraphQLDoorOptions = { production: true, openIntrospection: false, graphiql: false };

export type PurseYoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

/**
 * GraphQL over HTTP at /graphql (subscriptions as Server-Sent Events). Engine errors keep the
 * spec's message and carry their code; anything unexpected is masked.
 */
export function createGraphQLHandler(
  deps: EngineDependencies,
  options: GraphQLDoorOptions = strictest,
): PurseYoga {
  const graphiql = options.graphiql && !options.production;
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: purseSchema(),
    graphqlEndpoint: graphqlPath,
    landingPage: false,
    // GraphiQL from Purse's own files (graphiql/), never from a CDN: it works offline and under
    // its Content-Security-Policy.
    graphiql: graphiql ? graphiqlOptions : false,
    renderGraphiQL: renderGraphiQLPage,
    logging: false,
    // Parsed documents are cached by text (parsing depends on nothing else), within a bound on
    // their size. Validation depends on the caller (introspection is allowed to authenticated
    // callers only), so yoga's verdict cache, keyed by document alone, stays off: limitOperations
    // keeps its own, per kind of caller.
    parserAndValidationCache: {
      documentCache: boundedDocumentCache(),
      errorCache: noErrorCache,
      validationCache: false,
    },
    // Third-party front ends call with a bearer token from any origin; no origin is ever allowed
    // credentials (yoga's default reflects the origin *with* credentials), and `x-purse-csrf` is not
    // an allowed header, so another origin can never make a request the session cookie authenticates.
    cors: {
      origin: "*",
      credentials: false,
      methods: ["GET", "POST"],
      allowedHeaders: ["authorization", "content-type", "accept", "idempotency-key"],
    },
    // The host passes the caller's address as server context (`clientAddress`), resolved once by fastify.
    context: ({ request, clientAddress }) => {
      const { credential } = credentialOf(request);
      return createContext(deps, {
        token: credential.kind === "none" ? null : credential.token,
        session: credential.kind === "session",
        clientAddress: typeof clientAddress === "string" ? clientAddress : null,
        idempotencyKey: request.headers.get("idempotency-key"),
        sessionCookie: sessionCookieOf(request, options.production),
        // The dashboard's test-mode switch (same origin only: not a CORS-allowed header).
        testMode: request.headers.get("purse-mode") === "test",
      });
    },
    maskedErrors: { maskError },
    plugins: [
      // Only where the page is served: every other answer skips the hook.
      ...(graphiql ? [graphiqlPolicyHeader()] : []),
      useCookies(),
      refuseForgedSessionRequests(),
      markTestMode(),
      boundRequests(),
      limitOperations(deps, {
        openIntrospection: options.openIntrospection && !options.production,
        hideSuggestions: options.production,
      }),
    ],
  });
}

/** The session cookie through yoga's cookie store (set on the answer by `useCookies`). */
function sessionCookieOf(request: Request, secure: boolean): SessionCookie {
  const attributes = {
    name: sessionCookieName,
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure,
  } as const;
  return {
    set: async (token, expires) =>
      request.cookieStore?.set({ ...attributes, domain: null, value: token, expires: expires.getTime() }),
    // Same attributes as the cookie set, so the browser replaces it (with an expiry in the past).
    clear: async () => request.cookieStore?.delete(attributes),
  };
}

interface GraphQLErrorLike extends Error {
  readonly cause?: unknown;
  readonly originalError?: unknown;
}

/**
 * The GraphQL error around a resolver's error. Checked by name, not `instanceof`: yoga's helpers
 * may create it from another copy of the graphql module.
 */
function isGraphQLError(error: unknown): error is GraphQLErrorLike {
  return error instanceof Error && error.name === "GraphQLError";
}

/** graphql 17 keeps a resolver's error as `cause`; older releases called it `originalError`. */
function causeOf(error: GraphQLErrorLike): unknown {
  return error.cause ?? error.originalError;
}

function extensionsOf(error: GraphQLErrorLike): Record<string, unknown> {
  const extensions = (error as { extensions?: Record<string, unknown> }).extensions;
  return extensions ?? {};
}

function maskError(error: unknown): Error {
  const cause = isGraphQLError(error) ? causeOf(error) : error;
  // The database away or a deadlock's rollback is the engine's retryable refusal, not a bug.
  const original = asPurseError(cause) ?? cause;
  if (PurseError.is(original)) {
    return new GraphQLError(original.message, {
      extensions: {
        code: original.code,
        status: original.status,
        ...(original.field ? { field: refusedFieldName(original.field) } : {}),
        ...(original.translation ? { translation: original.translation } : {}),
      },
    });
  }
  if (isGraphQLError(original)) return nativeGraphQLError(original);
  // A request error (syntax, validation, limits), possibly from graphql-armor's own copy of graphql.
  if (isGraphQLError(error) && original === undefined) return nativeGraphQLError(error);
  return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
}

function nativeGraphQLError(error: GraphQLErrorLike): GraphQLError {
  return error instanceof GraphQLError
    ? error
    : new GraphQLError(error.message, { extensions: extensionsOf(error) });
}
