import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Live updates in a real browser, both ways the docs give (docs/graphql.md, docs/trpc.md, "Live
 * updates from a browser"): a page on Purse's own origin with the dashboard's session cookie
 * (Server-Sent Events, GraphQL and tRPC), and a front end served from another origin with a
 * bearer token in the WebSocket's connectionParams (graphql-ws and tRPC's wsLink, bundled for
 * the browser). Each receives its own merchant's events only, a revoked credential ends the
 * stream, and the cookie never authenticates a WebSocket.
 */

/** The third-party front end's script: the two libraries' own browser clients, nothing of Purse's. */
const frontEnd = `
import { createClient } from "graphql-ws";
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";

const query = "subscription { transactionUpdated { transactionId } }";
window.live = { graphql: [], trpc: [], closes: [], ended: [] };

window.subscribeGraphQL = (url, connectionParams) => {
  const client = createClient({
    url, connectionParams, retryAttempts: 0, lazy: false,
    on: { closed: (event) => window.live.closes.push(event.code + " " + event.reason) },
  });
  client.subscribe({ query }, {
    next: ({ data }) => data && window.live.graphql.push(data.transactionUpdated.transactionId),
    error: () => window.live.ended.push("graphql error"),
    complete: () => window.live.ended.push("graphql complete"),
  });
};

window.subscribeTrpc = (url, connectionParams) => {
  const wsClient = createWSClient({
    url, connectionParams, retryDelayMs: () => 60000,
    onClose: (event) => window.live.closes.push("trpc " + event.code),
  });
  const client = createTRPCClient({ links: [wsLink({ client: wsClient })] });
  client.transactionUpdated.subscribe(undefined, {
    onData: (update) => window.live.trpc.push(update.transactionId),
    onError: (error) => window.live.ended.push("trpc error " + (error.data?.code ?? error.message)),
    onComplete: () => window.live.ended.push("trpc complete"),
  });
};
`;

async function bundleFrontEnd(): Promise<string> {
  const result = await build({
    stdin: { contents: frontEnd, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "js" },
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** The other origin: one page and its bundled script, from a plain HTTP server on another port. */
async function serveFrontEnd(script: string): Promise<{ server: Server; url: string }> {
  const page = '<!doctype html><title>Another front end</title><script type="module" src="/app.js"></script>';
  const server = createServer((request, response) => {
    const isScript = request.url === "/app.js";
    response.writeHead(200, { "content-type": isScript ? "text/javascript" : "text/html" });
    response.end(isScript ? script : page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

interface Live {
  readonly graphql: number[];
  readonly trpc: number[];
  readonly closes: string[];
  readonly ended: string[];
}

const liveOf = (page: Page) => page.evaluate(() => (window as unknown as { live: Live }).live);

describe("live updates in Chromium", { timeout: 90_000 }, () => {
  let api: TestServer;
  let frontEndSite: { server: Server; url: string };
  let browser: Browser;
  let context: BrowserContext;

  async function transfer(amount: string): Promise<number> {
    const made = await api.call("POST", "/api/transaction/transfer", {
      token: await api.token("acme"),
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
    });
    expect(made.status).toBe(200);
    return Number(made.body.data.id);
  }

  /** A page of the dashboard on Purse's origin, signed in as bolt (the session cookie set). */
  async function signedInDashboard(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel("Login", { exact: true }).fill("bolt");
    await page.getByLabel("Password", { exact: true }).fill("bolt-pass");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    return page;
  }

  /** Transfers acme → bolt until `seen` holds one (a subscription starts asynchronously). */
  async function transferUntilSeen(seen: () => Promise<readonly number[]>): Promise<number> {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const id = await transfer(`${attempt}.00`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      if ((await seen()).includes(id)) return id;
    }
    throw new Error("no event reached the page");
  }

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    // GraphQL loads on its first request: here, rather than while a page waits for it.
    await api.call("POST", "/graphql", { body: { query: "{ __typename }" } });
    frontEndSite = await serveFrontEnd(await bundleFrontEnd());
    browser = await launchBrowser();
    context = await browser.newContext();
    context.setDefaultTimeout(30_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => frontEndSite?.server.close(resolve));
    await api?.close();
  });

  it("a page on Purse's origin streams its session's events over SSE, GraphQL and tRPC, until signed out", async () => {
    const page = await signedInDashboard();
    // The dashboard's way (fetch with the CSRF header; the cookie goes by itself) for both doors.
    await page.evaluate(() => {
      const live = { graphql: [] as number[], trpc: [] as number[], closes: [], ended: [] as string[] };
      (window as unknown as { live: typeof live }).live = live;
      const read = async (door: "graphql" | "trpc", response: Promise<Response>) => {
        const body = (await response).body?.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        for (;;) {
          const chunk = await body?.read();
          if (!chunk || chunk.done) return live.ended.push(`${door} ended`);
          text += chunk.value;
          live[door] = [...text.matchAll(/"transactionId":(\d+)/g)].map((match) => Number(match[1]));
        }
      };
      const headers = { "x-purse-csrf": "1", accept: "text/event-stream" };
      void read(
        "graphql",
        fetch("/graphql", {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ query: "subscription { transactionUpdated { transactionId } }" }),
        }),
      );
      void read("trpc", fetch("/trpc/transactionUpdated", { headers }));
    });
    const made = await transferUntilSeen(async () => {
      const live = await liveOf(page);
      return live.graphql.filter((id) => live.trpc.includes(id));
    });
    expect((await liveOf(page)).trpc).toContain(made);

    // Another merchant's transfer (acme → cafe) never reaches bolt's page.
    const elsewhere = await api.call("POST", "/api/transaction/transfer", {
      token: await api.token("acme"),
      body: { wallet_from: "U100000010", wallet_to: "U100000030", amount: "1.00" },
    });
    expect(elsewhere.status).toBe(200);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Login", { exact: true }).waitFor();
    const after = await transfer("3.33");
    await expect.poll(async () => (await liveOf(page)).ended.sort()).toEqual(["graphql ended", "trpc ended"]);
    const live = await liveOf(page);
    expect([...live.graphql, ...live.trpc]).not.toContain(after);
    expect([...live.graphql, ...live.trpc]).not.toContain(Number(elsewhere.body.data.id));
    await page.close();
  });

  it("a front end on another origin subscribes over WebSocket with its token in connectionParams", async () => {
    const page = await context.newPage();
    await page.goto(frontEndSite.url);
    await page.waitForFunction(() => "subscribeGraphQL" in window);
    const wsUrl = api.url.replace(/^http/, "ws");
    const bolt = await api.token("bolt");
    await page.evaluate(
      ({ wsUrl, bolt }) => {
        const params = { authorization: `Bearer ${bolt}` };
        const page = window as unknown as Record<string, (url: string, params: unknown) => void>;
        page["subscribeGraphQL"]?.(`${wsUrl}/graphql`, params);
        page["subscribeTrpc"]?.(`${wsUrl}/trpc`, params);
      },
      { wsUrl, bolt },
    );
    const made = await transferUntilSeen(async () => {
      const live = await liveOf(page);
      return live.graphql.filter((id) => live.trpc.includes(id));
    });
    expect((await liveOf(page)).graphql).toContain(made);

    // A page that cafe's token subscribes gets nothing of bolt's.
    const cafePage = await context.newPage();
    await cafePage.goto(frontEndSite.url);
    await cafePage.waitForFunction(() => "subscribeGraphQL" in window);
    const cafe = await api.token("cafe");
    await cafePage.evaluate(
      ({ wsUrl, cafe }) => {
        const page = window as unknown as Record<string, (url: string, params: unknown) => void>;
        page["subscribeGraphQL"]?.(`${wsUrl}/graphql`, { authorization: `Bearer ${cafe}` });
        page["subscribeTrpc"]?.(`${wsUrl}/trpc`, { authorization: `Bearer ${cafe}` });
      },
      { wsUrl, cafe },
    );

    // Revoking bolt's token ends both of its streams at the next event.
    expect((await api.call("POST", "/token/revoke", { body: { token: bolt } })).status).toBe(200);
    const after = await transfer("4.44");
    await expect
      .poll(async () => (await liveOf(page)).ended.sort())
      .toEqual(["graphql complete", "trpc complete"]);
    // The socket's close (code and reason) follows the streams' ends: a busy machine shows it later.
    await expect
      .poll(async () => (await liveOf(page)).closes)
      .toContain("4403 The token is invalid, expired or revoked.");
    const live = await liveOf(page);
    expect([...live.graphql, ...live.trpc]).not.toContain(after);
    const cafeLive = await liveOf(cafePage);
    expect([...cafeLive.graphql, ...cafeLive.trpc]).toEqual([]);
    expect(cafeLive.ended).toEqual([]);
    await cafePage.close();
    await page.close();
  });

  it("never authenticates a WebSocket by the cookie, and refuses a token that is not one", async () => {
    // The browser holds bolt's session for Purse's host and sends it with the handshake of a
    // page from another port (same site): the socket must still ask for a token.
    const own = await signedInDashboard();
    expect((await context.cookies(api.url)).some((cookie) => cookie.name === "purse_session")).toBe(true);

    const page = await context.newPage();
    await page.goto(frontEndSite.url);
    await page.waitForFunction(() => "subscribeGraphQL" in window);
    const wsUrl = api.url.replace(/^http/, "ws");
    await page.evaluate((wsUrl) => {
      const page = window as unknown as Record<string, (url: string, params: unknown) => void>;
      page["subscribeGraphQL"]?.(`${wsUrl}/graphql`, undefined);
    }, wsUrl);
    await expect.poll(async () => (await liveOf(page)).ended).toEqual(["graphql error"]);
    await expect.poll(async () => (await liveOf(page)).closes[0]).toMatch(/^4401 Send connectionParams/);
    // tRPC's socket answers its error envelope first (wsLink then retries, with its backoff).
    const trpcAnswer = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onmessage = (event) => resolve(String(event.data));
        }),
      `${wsUrl}/trpc`,
    );
    expect(JSON.parse(trpcAnswer)).toMatchObject({ id: null, error: { data: { code: "UNAUTHORIZED" } } });

    await page.evaluate((wsUrl) => {
      const page = window as unknown as Record<string, (url: string, params: unknown) => void>;
      page["subscribeGraphQL"]?.(`${wsUrl}/graphql`, { authorization: "Bearer pat_not-a-real-token" });
    }, wsUrl);
    await expect
      .poll(async () => (await liveOf(page)).closes)
      .toContain("4403 The token is invalid, expired or revoked.");
    await page.close();
    await own.close();
  });
});
