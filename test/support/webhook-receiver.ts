import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface MerchantSite {
  readonly url: string;
  /** Every POST received, including the ones answered with an error. */
  readonly received: ReceivedWebhook[];
  /** Answer the next `count` webhook POSTs with 503. */
  failNext(count: number): void;
  /** Answer the next `count` webhook POSTs to `path` with 503 (others are answered as usual). */
  failPath(path: string, count: number): void;
  /** Resolves when `count` POSTs have arrived at `path` (or rejects after `timeoutMs`). */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A stand-in for a merchant's site on a local port: it receives webhooks (and can fail on
 * purpose) and serves the success and cancel pages the payer is sent back to.
 */
export async function startMerchantSite(): Promise<MerchantSite> {
  const received: ReceivedWebhook[] = [];
  let failures = 0;
  const pathFailures = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST") {
        received.push({
          path: request.url ?? "/",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        const path = request.url ?? "/";
        const forPath = pathFailures.get(path) ?? 0;
        if (forPath > 0) pathFailures.set(path, forPath - 1);
        if (failures > 0 || forPath > 0) {
          if (forPath === 0) failures -= 1;
          response.writeHead(503).end("try later");
          return;
        }
        response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        return;
      }
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><title>Shop</title><h1>Back at the shop: ${request.url}</h1>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext(count) {
      failures = count;
    },
    failPath(path, count) {
      pathFailures.set(path, count);
    },
    async waitFor(path, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((webhook) => webhook.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`only ${matching.length} of ${count} webhook(s) reached ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A delivery still on its way (a worker the test left running) must not hold the close.
        server.closeAllConnections();
      }),
  };
}

/**
 * An endpoint event a receiver got, verified with the endpoint's secret by the Standard Webhooks
 * reference library, as a merchant's receiver would: it throws on a bad signature.
 */
export function verifiedEvent(
  received: ReceivedWebhook,
  secret: string,
): { id: string; type: string; livemode: boolean } {
  const headers = Object.fromEntries(
    Object.entries(received.headers).map(([key, value]) => [key, String(value)]),
  );
  return new Webhook(secret).verify(received.body, headers) as {
    id: string;
    type: string;
    livemode: boolean;
  };
}
