import { createServer, type Server, Socket } from "node:net";

export interface PostgresRelay {
  /** `url` (a connection string to the relayed PostgreSQL) pointed at the relay instead. */
  through(url: string): string;
  /** Drops every connection and stops listening: "the database" is gone. */
  stop(): Promise<void>;
}

export interface PostgresRelayOptions {
  /** Drops a connection as its client sends a chunk this matches (the node lost mid-conversation). */
  readonly cutWhen?: (sent: Buffer) => boolean;
}

/**
 * A TCP relay in front of a test's PostgreSQL (`url`'s host and port), so a test can take the
 * database away from a client: all at once (`stop`), or one connection at a chosen moment
 * (`cutWhen`), as a failover's restart does.
 */
export async function startPostgresRelay(
  url: string,
  options: PostgresRelayOptions = {},
): Promise<PostgresRelay> {
  const target = new URL(url);
  const { cutWhen } = options;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    upstream.connect(Number(target.port || 5432), target.hostname);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    if (cutWhen)
      client.on("data", (chunk: Buffer) => {
        if (cutWhen(chunk)) drop();
        else upstream.write(chunk);
      });
    else client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { port } = relay.address() as { port: number };
  return {
    through(given) {
      const relayed = new URL(given);
      relayed.hostname = "127.0.0.1";
      relayed.port = String(port);
      return relayed.toString();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
