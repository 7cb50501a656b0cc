import type { IncomingMessage } from "node:http";
import {
  authenticate,
  bearerToken,
  csrfHeaderName,
  csrfRefusalMessages,
  type EngineDependencies,
  requestCredential,
} from "@purse/engine";
import { answerFrameworkError, isForbiddenJsonKey, parseExactJson, requestRefusal } from "@purse/rest";
import { appRouter, refuseRequest, type TrpcContext, trpcLimits } from "@purse/trpc";
import { TRPCError } from "@trpc/server";
import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import { getWSConnectionHandler } from "@trpc/server/adapters/ws";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { WebSocketServer } from "ws";
import { admitLiveSockets, liveSocketLimits } from "./live-sockets.ts";

/**
 * tRPC at /trpc on the same server (queries, mutations, SSE subscriptions, and subscriptions over
 * a WebSocket at /trpc). Its own scope: its own body limit and JSON parsing, and refusals in
 * tRPC's error envelope rather than REST's.
 */
export async function mountTrpc(app: FastifyInstance, deps: EngineDependencies): Promise<void> {
  const openSocket = trpcSocketHandler(deps, app.websocketServer);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // tRPC parses the JSON itself (and answers PARSE_ERROR in its envelope). First, REST's exact
    // reading: an amount a double would round reaches tRPC as its text, an identifier number that
    // is not exactly its digits as null (refused), and a __proto__ key is refused here.
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: trpcLimits.maxBodyBytes },
      (_request, body, done) => {
        const text = String(body);
        let exact: unknown;
        try {
          exact = parseExactJson(text).body;
        } catch (error) {
          if (isForbiddenJsonKey(error)) return done(Object.assign(error as Error, { code: forbiddenKey }));
          return done(null, text);
        }
        done(null, JSON.stringify(exact));
      },
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = refusalOf(error);
      if (refusal.status >= 500) request.log.error({ err: error }, "tRPC request failed");
      return reply.status(refusal.status).send(refusal.body);
    });
    // The bare `/trpc` names no procedure: tRPC's own NOT_FOUND, in its envelope. Its GET also
    // takes wsLink's WebSocket (@fastify/websocket allows an upgrade on GET routes only).
    scope.route({
      url: "/trpc",
      method: "POST",
      bodyLimit: trpcLimits.maxBodyBytes,
      schema: { hide: true },
      handler: (request, reply) => answerTrpc(request, reply, ""),
    });
    scope.route({
      url: "/trpc",
      method: "GET",
      schema: { hide: true },
      preHandler: admitLiveSockets(deps, (message) => refuseRequest("TOO_MANY_REQUESTS", message).body),
      handler: (request, reply) => answerTrpc(request, reply, ""),
      wsHandler: (socket, request) => openSocket(socket, request),
    });
    scope.route({
      // A wildcard, not `/:path`: a batch's path lists every procedure, and a long batch must
      // reach tRPC's own batch limit (BAD_REQUEST) rather than the router's parameter length.
      url: "/trpc/*",
      method: ["GET", "POST"],
      bodyLimit: trpcLimits.maxBodyBytes,
      // tRPC describes itself (the AppRouter type), not in the REST API's OpenAPI document.
      schema: { hide: true },
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
      }),
      req: request,
      res: reply,
      path,
    });
  }
}

const connectionParamsInUrl =
  "connectionParams in a URL are refused: a token there ends up in logs and history. Use wsLink " +
  "(WebSocket) with connectionParams, or, on Purse's own origin, the dashboard's session cookie.";

const missingToken =
  "Send connectionParams {authorization: 'Bearer <token>'} with wsLink (createWSClient's connectionParams).";

/**
 * tRPC over WebSocket (wsLink) for front ends on other origins: authenticated by the bearer token
 * of the connectionParams message the client sends first, never by the URL nor by the session
 * cookie (a browser sends the cookie with any page's WebSocket handshake, so accepting it would
 * let any site a signed-in merchant visits read their events: cross-site WebSocket hijacking).
 * A missing or refused token gets tRPC's error envelope, then the socket closes. Only
 * subscriptions run, at most `maxSubscriptions` at once (packages/trpc/src/trpc.ts).
 */
function trpcSocketHandler(deps: EngineDependencies, wss: WebSocketServer) {
  const addresses = new WeakMap<IncomingMessage, string>();
  const unauthenticated = new WeakSet<IncomingMessage>();
  const handle = getWSConnectionHandler({
    wss,
    router: appRouter,
    maxBatchSize: trpcLimits.maxBatchSize,
    keepAlive: {
      enabled: true,
      pingMs: liveSocketLimits.keepAliveMs,
      pongWaitMs: liveSocketLimits.keepAliveMs,
    },
    createContext: async ({ req, info }): Promise<TrpcContext> => {
      unauthenticated.delete(req);
      const given = info.connectionParams?.["authorization"];
      const token = typeof given === "string" ? bearerToken(given) : null;
      if (token === null) throw new TRPCError({ code: "UNAUTHORIZED", message: missingToken });
      await authenticate(deps, token).catch(() => {
        throw new TRPCError({ code: "UNAUTHORIZED", message: "The token is invalid, expired or revoked." });
      });
      return {
        deps,
        authorization: `Bearer ${token}`,
        clientAddress: addresses.get(req) ?? null,
        socket: { maxSubscriptions: liveSocketLimits.maxSubscriptions, open: 0 },
      };
    },
  });
  return (socket: Parameters<typeof handle>[0], request: FastifyRequest) => {
    addresses.set(request.raw, request.ip);
    unauthenticated.add(request.raw);
    // wsLink sends its connectionParams first; a socket that never does is closed.
    const waiting = setTimeout(() => {
      if (!unauthenticated.has(request.raw)) return;
      const refusal = refuseRequest("TIMEOUT", "No connectionParams message within the time allowed.");
      socket.send(JSON.stringify({ id: null, ...refusal.body }));
      socket.close();
    }, liveSocketLimits.connectionInitTimeoutMs);
    socket.once("close", () => clearTimeout(waiting));
    handle(socket, request.raw);
  };
}

/**
 * The router's own refusals (bad percent-encoding, an over-long path) on a tRPC path, in tRPC's
 * envelope as the rest of its refusals; on any other path, REST's.
 */
export function answerFrameworkErrorByDoor(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!/^\/+trpc(\/|\?|$)/.test(request.url)) return answerFrameworkError(error, request, reply);
  const { status, message } = requestRefusal(error);
  return reply.status(status).send(refuseRequest("BAD_REQUEST", message).body);
}

const forbiddenKey = "PURSE_FORBIDDEN_JSON_KEY";

/** A header's one value (the first, if it came more than once). */
function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function refusalOf(error: FastifyError): ReturnType<typeof refuseRequest> {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return refuseRequest(
        "PAYLOAD_TOO_LARGE",
        `Request body is larger than ${trpcLimits.maxBodyBytes} bytes.`,
      );
    case forbiddenKey:
      // REST's words for it, in tRPC's envelope.
      return refuseRequest("BAD_REQUEST", requestRefusal(error).message);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return refuseRequest("UNSUPPORTED_MEDIA_TYPE", "Send JSON (application/json).");
    default:
      if ((error.statusCode ?? 500) < 500) return refuseRequest("BAD_REQUEST", "Malformed request.");
      return refuseRequest("INTERNAL_SERVER_ERROR", "Internal server error");
  }
}
