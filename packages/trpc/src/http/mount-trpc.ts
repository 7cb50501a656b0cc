import {
  bearerToken,
  csrfHeaderName,
  csrfRefusalMessages,
  type EngineDependencies,
  isTestCredential,
  requestCredential,
} from "@purse/engine";
import {
  admitLiveSockets,
  forbiddenJsonKeyError,
  isForbiddenJsonKey,
  parseExactJson,
} from "@purse/http-kernel";
import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { refuseRequest, trpcLimits } from "../refuse-request.ts";
import { appRouter } from "../router.ts";
import type { TrpcContext } from "../trpc.ts";
import { trpcBodyRefusal } from "./trpc-refusals.ts";
import { trpcSocketHandler } from "./trpc-socket.ts";

/**
 * tRPC at /trpc on the host's fastify server (queries, mutations, SSE subscriptions, and
 * subscriptions over a WebSocket at /trpc; the host registers the live sockets first,
 * @purse/http-kernel's registerLiveSockets). Its own scope: its own body limit and JSON parsing, and refusals in
 * tRPC's error envelope rather than REST's.
 */
export async function mountTrpc(app: FastifyInstance, deps: EngineDependencies): Promise<void> {
  const openSocket = trpcSocketHandler(deps, app.websocketServer);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // tRPC parses the JSON itself (and answers PARSE_ERROR in its envelope). First, the exact
    // reading REST's bodies get too (@purse/http-kernel): an amount a double would round reaches
    // tRPC as its text, an identifier number that is not exactly its digits as null (refused), and
    // a __proto__ key is refused here.
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: trpcLimits.maxBodyBytes },
      (_request, body, done) => {
        const text = String(body);
        let exact: unknown;
        try {
          exact = parseExactJson(text).body;
        } catch (error) {
          if (isForbiddenJsonKey(error)) return done(forbiddenJsonKeyError(error));
          return done(null, text);
        }
        done(null, JSON.stringify(exact));
      },
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = trpcBodyRefusal(error);
      if (refusal.status >= 500) request.log.error({ err: error }, "tRPC request failed");
      return reply.status(refusal.status).send(refusal.body);
    });
    // No route here needs OpenAPI's `hide`: REST's document sees REST's own scope only.
    // The bare `/trpc` names no procedure: tRPC's own NOT_FOUND, in its envelope. Its GET also
    // takes wsLink's WebSocket (@fastify/websocket allows an upgrade on GET routes only).
    scope.route({
      url: "/trpc",
      method: "POST",
      bodyLimit: trpcLimits.maxBodyBytes,
      handler: (request, reply) => answerTrpc(request, reply, ""),
    });
    scope.route({
      url: "/trpc",
      method: "GET",
      preHandler: admitLiveSockets(deps, (message) => refuseRequest("TOO_MANY_REQUESTS", message).body),
      handler: (request, reply) => answerTrpc(request, reply, ""),
      wsHandler: openSocket,
    });
    scope.route({
      // A wildcard, not `/:path`: a batch's path lists every procedure, and a long batch must
      // reach tRPC's own batch limit (BAD_REQUEST) rather than the router's parameter length.
      url: "/trpc/*",
      method: ["GET", "POST"],
      bodyLimit: trpcLimits.maxBodyBytes,
      handler: (request, reply) => answerTrpc(request, reply, (request.params as { "*": string })["*"]),
    });
  });

  async function answerTrpc(request: FastifyRequest, reply: FastifyReply, path: string): Promise<void> {
    // httpSubscriptionLink puts connectionParams (a token, typically) in the URL's query string,
    // where proxies, browser history and access logs keep it: refused, never read. (The route
    // pattern alone is logged, and the log scrubs query strings: logger-options.ts.)
    if (new URL(request.url, "http://purse.invalid").searchParams.has("connectionParams")) {
      const refusal = refuseRequest("BAD_REQUEST", connectionParamsInUrl);
      return reply.status(refusal.status).send(refusal.body);
    }
    // The same rule as GraphQL's: the Authorization header wins; the dashboard's cookie counts
    // only with the CSRF header and from Purse's own origin (engine/auth/request-credential.ts).
    const { credential, refusal } = requestCredential({
      authorization: headerText(request.headers.authorization),
      cookie: headerText(request.headers.cookie),
      csrf: headerText(request.headers[csrfHeaderName]),
      fetchSite: headerText(request.headers["sec-fetch-site"]),
    });
    if (refusal !== null) {
      const refused = refuseRequest("FORBIDDEN", csrfRefusalMessages[refusal]);
      return reply.status(refused.status).send(refused.body);
    }
    return fastifyRequestHandler({
      router: appRouter,
      maxBatchSize: trpcLimits.maxBatchSize,
      createContext: (): TrpcContext => ({
        deps,
        authorization: request.headers.authorization ?? null,
        sessionToken: credential.kind === "session" ? credential.token : null,
        clientAddress: request.ip,
        idempotencyKey: headerText(request.headers["idempotency-key"]),
        // The dashboard's test-mode switch (honoured with its session cookie only: trpc.ts).
        testMode: headerText(request.headers["purse-mode"]) === "test",
      }),
      // Every answer about test data says so (contract: "Test mode"): a header, as tRPC's body
      // carries only the procedure's output.
      responseMeta: ({ ctx }) =>
        ctx && isTestModeCall(ctx) ? { headers: new Headers({ "purse-livemode": "false" }) } : {},
      req: request,
      res: reply,
      path,
    });
  }
}

const connectionParamsInUrl =
  "connectionParams in a URL are refused: a token there ends up in logs and history. Use wsLink " +
  "(WebSocket) with connectionParams, or, on Purse's own origin, the dashboard's session cookie.";

/** A test token's call, or the dashboard's with its test-mode switch on. */
function isTestModeCall(ctx: TrpcContext): boolean {
  const bearer = ctx.authorization === null ? null : bearerToken(ctx.authorization);
  return isTestCredential(bearer) || (bearer === null && ctx.testMode === true && Boolean(ctx.sessionToken));
}

/** A header's one value (the first, if it came more than once). */
function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
