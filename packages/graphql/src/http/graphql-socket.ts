import type { WebsocketHandler } from "@fastify/websocket";
import { liveSocketLimits } from "@purse/http-kernel";
import { CloseCode, makeServer, type ServerOptions } from "graphql-ws";
import type { LiveSocketExtra } from "../live/graphql-ws-options.ts";

/**
 * graphql-ws's server on a @fastify/websocket socket. graphql-ws's own fastify handler writes
 * every socket error (a client's oversized frame included) to the console and echoes internal
 * error messages outside production; this one drops a broken socket quietly (ws has already
 * closed it with the right code, e.g. 1009 for a frame past maxPayload) and never sends an
 * internal message. Keep-alive: a ping per interval, a peer silent until the next is dropped.
 */
export function graphqlSocketHandler(
  options: ServerOptions<Record<string, unknown>, LiveSocketExtra>,
): WebsocketHandler {
  const server = makeServer(options);
  return (socket, request) => {
    socket.on("error", () => socket.terminate());
    let alive = true;
    socket.on("pong", () => {
      alive = true;
    });
    const keepAlive = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, liveSocketLimits.keepAliveMs);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            // A send that fails means the socket is gone; its close ends everything anyway.
            socket.send(data, () => resolve());
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on("message", (data) => {
            handle(String(data)).catch(() =>
              socket.close(CloseCode.InternalServerError, "Internal server error"),
            );
          }),
      },
      { socket, request },
    );
    socket.once("close", (code, reason) => {
      clearInterval(keepAlive);
      void closed(code, String(reason));
    });
  };
}
