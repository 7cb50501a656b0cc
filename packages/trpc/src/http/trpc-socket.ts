import type { IncomingMessage } from "node:http";
import type { WebsocketHandler } from "@fastify/websocket";
import { bearerToken, type EngineDependencies, resolveCaller } from "@purse/engine";
import { liveSocketLimits } from "@purse/http-kernel";
import { TRPCError } from "@trpc/server";
import { getWSConnectionHandler } from "@trpc/server/adapters/ws";
import type { FastifyInstance } from "fastify";
import { refuseRequest, trpcLimits } from "../refuse-request.ts";
import { appRouter } from "../router.ts";
import type { TrpcContext } from "../trpc.ts";

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
export function trpcSocketHandler(
  deps: EngineDependencies,
  wss: FastifyInstance["websocketServer"],
): WebsocketHandler {
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
      await resolveCaller(deps, token)
        .then((caller) => caller.actor)
        .catch(() => {
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
  return (socket, request) => {
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
