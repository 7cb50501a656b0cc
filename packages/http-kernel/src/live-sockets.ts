import websocket from "@fastify/websocket";
import { admitLiveSocket, type EngineDependencies } from "@purse/engine";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Bounds of the WebSockets that carry live updates (GraphQL's graphql-ws at /graphql, tRPC's at
 * /trpc): the same for both doors. A subscription needs a few hundred bytes; a frame past
 * `maxPayloadBytes` closes the socket (1009) before it is buffered whole.
 */
export const liveSocketLimits = {
  /** One frame, bytes: the HTTP body limit of GraphQL (tRPC's is larger, for batches of writes). */
  maxPayloadBytes: 64 * 1024,
  /** Time to authenticate (graphql-ws `connection_init`, tRPC's connectionParams message). */
  connectionInitTimeoutMs: 5_000,
  /** Subscriptions at once on one socket. */
  maxSubscriptions: 8,
  /** Pings this often; a peer that has not answered by the next one is dropped. */
  keepAliveMs: 15_000,
} as const;

/**
 * WebSocket upgrades on fastify's own server (before any route, as @fastify/websocket needs). An
 * upgrade runs the route's hooks like any request; only the GET routes of /graphql and /trpc
 * accept one, every other path closes it. No cookie is ever read on a socket (each door
 * authenticates it by the bearer token of its first message).
 */
export async function registerLiveSockets(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: {
      maxPayload: liveSocketLimits.maxPayloadBytes,
      // Compression would let a small frame inflate to many times the payload bound.
      perMessageDeflate: false,
    },
    // A client that vanishes mid-frame is ordinary on the internet: drop its socket, log nothing.
    errorHandler: (_error, socket) => socket.terminate(),
  });
}

/**
 * Refuses an upgrade from an address over its budget of sockets (PURSE_RATE_LIMIT_PER_MINUTE a
 * minute) with 429 in the door's shape, before the handshake. Plain HTTP requests pass.
 */
export function admitLiveSockets(
  deps: EngineDependencies,
  refusal: (message: string) => unknown,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    if (!request.ws || (await admitLiveSocket(deps, request.ip))) return;
    await reply
      .status(429)
      .header("retry-after", "60")
      .send(refusal("Too many WebSocket connections from this address; retry in a minute."));
  };
}
