import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * The WebSockets that carry live updates to front ends on other origins, from Node's side of the
 * wire: what a well-behaved client gets (its own events only), and what hostile input gets
 * (no authentication, garbage, oversized frames, too many subscriptions).
 */

let api: TestServer;
let wsUrl: string;
beforeAll(async () => {
  api = await startTestServer();
  wsUrl = api.url.replace(/^http/, "ws");
});
afterAll(() => api.close());

interface Closed {
  readonly code: number;
  readonly reason: string;
  /** Text frames the server sent before closing. */
  readonly messages: string[];
}

/** Opens a raw socket, sends `frames` once open, and waits for the server to close it. */
function rawSocket(
  path: string,
  frames: readonly (string | Buffer)[],
  options: { protocol?: string; headers?: Record<string, string> } = {},
): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsUrl}${path}`, options.protocol, { headers: options.headers ?? {} });
    const messages: string[] = [];
    socket.on("open", () => {
      for (const frame of frames) socket.send(frame);
    });
    socket.on("message", (data) => messages.push(String(data)));
    socket.on("close", (code, reason) => resolve({ code, reason: String(reason), messages }));
    socket.on("error", reject);
  });
}

const graphqlWs = "graphql-transport-ws";
const init = (payload?: unknown) => JSON.stringify({ type: "connection_init", payload });
const subscribe = (id: string, query: string) =>
  JSON.stringify({ id, type: "subscribe", payload: { query } });
const liveQuery = "subscription { transactionUpdated { transactionId type status } }";

async function transfer(amount: string): Promise<number> {
  const made = await api.call("POST", "/api/transaction/transfer", {
    token: await api.token("acme"),
    body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
  });
  expect(made.status).toBe(200);
  return made.body.data.id as number;
}

/** A session cookie of the dashboard, as signing in on Purse's own page sets it. */
async function sessionCookie(login: string, password: string): Promise<string> {
  const response = await fetch(`${api.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-purse-csrf": "1" },
    body: JSON.stringify({
      query: `mutation { signIn(login: "${login}", password: "${password}") { __typename } }`,
    }),
  });
  const cookie = response.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^purse_session=/);
  return cookie.split(";")[0] ?? "";
}

describe("GraphQL over WebSocket (graphql-ws) at /graphql", () => {
  it("closes 4401 without a bearer token in connectionParams, even with a session cookie", async () => {
    const cookie = await sessionCookie("bolt", "bolt-pass");
    const closed = await rawSocket("/graphql", [init()], { protocol: graphqlWs, headers: { cookie } });
    expect(closed.code).toBe(4401);
    expect(closed.reason).toContain("connectionParams");
  });

  it("closes 4403 on a token that is not one", async () => {
    const closed = await rawSocket("/graphql", [init({ authorization: "Bearer pat_not-a-real-token" })], {
      protocol: graphqlWs,
    });
    expect(closed).toMatchObject({ code: 4403, reason: "The token is invalid, expired or revoked." });
  });

  it("closes 4408 when connection_init never comes", async () => {
    const closed = await rawSocket("/graphql", [], { protocol: graphqlWs });
    expect(closed.code).toBe(4408);
  }, 15_000);

  it("closes 4400 on a frame that is not a message, and 1009 on a frame past the bound", async () => {
    const garbage = await rawSocket("/graphql", ["{not json", "x".repeat(10)], { protocol: graphqlWs });
    expect(garbage.code).toBe(4400);
    const oversized = await rawSocket("/graphql", [Buffer.alloc(65 * 1024, 0x61)], { protocol: graphqlWs });
    expect(oversized.code).toBe(1009);
  });

  it("refuses a query and a ninth subscription in GraphQL's error shape, and a bad document", async () => {
    const token = await api.token("bolt");
    // Sent together once the connection is acknowledged (the protocol forbids them before).
    const frames = [
      subscribe("query", "{ me { name } }"),
      subscribe("broken", "subscription { transactionUpdated { nope } }"),
      ...Array.from({ length: 9 }, (_, index) => subscribe(`s${index}`, liveQuery)),
    ];
    const messages = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const socket = new WebSocket(`${wsUrl}/graphql`, graphqlWs);
      const seen: Record<string, unknown>[] = [];
      socket.on("open", () => socket.send(init({ authorization: `Bearer ${token}` })));
      socket.on("message", (data) => {
        seen.push(JSON.parse(String(data)));
        if (seen.length === 1) for (const frame of frames) socket.send(frame);
        if (seen.filter((message) => message["type"] === "error").length === 3) {
          socket.close();
          resolve(seen);
        }
      });
      socket.on("error", reject);
      socket.on("close", (code, reason) =>
        reject(new Error(`closed ${code} ${reason}: ${JSON.stringify(seen)}`)),
      );
    });
    const errorOf = (id: string) =>
      messages.find((message) => message["id"] === id && message["type"] === "error")?.["payload"];
    expect(messages[0]).toEqual({ type: "connection_ack" });
    expect(errorOf("query")).toEqual([
      expect.objectContaining({ message: expect.stringContaining("Only subscriptions run over WebSocket") }),
    ]);
    expect(errorOf("broken")).toEqual([
      expect.objectContaining({ message: expect.stringContaining('"nope"') }),
    ]);
    expect(errorOf("s8")).toEqual([
      expect.objectContaining({ extensions: { code: "TOO_MANY_SUBSCRIPTIONS" } }),
    ]);
  });

  it("delivers the caller's own events, none of another merchant's, and ends on revocation", async () => {
    const token = await api.token("bolt");
    const other = await api.token("cafe");
    const received: { bolt: number[]; cafe: number[] } = { bolt: [], cafe: [] };
    const closes: { code: number; reason: string }[] = [];
    const clientFor = (bearer: string) =>
      createClient({
        url: `${wsUrl}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${bearer}` },
        retryAttempts: 0,
        // Kept open with no subscription left, so the server's own close is seen.
        lazy: false,
        on: { closed: (event) => closes.push(event as { code: number; reason: string }) },
      });
    const bolt = clientFor(token);
    const cafe = clientFor(other);
    const ended = new Promise<void>((resolve, reject) => {
      bolt.subscribe<{ transactionUpdated: { transactionId: number } }>(
        { query: liveQuery },
        {
          next: ({ data }) => data && received.bolt.push(data.transactionUpdated.transactionId),
          error: reject,
          complete: resolve,
        },
      );
    });
    cafe.subscribe<{ transactionUpdated: { transactionId: number } }>(
      { query: liveQuery },
      {
        next: ({ data }) => data && received.cafe.push(data.transactionUpdated.transactionId),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    const made = await transferUntilSeen(() => received.bolt);
    expect(received.bolt).toContain(made);
    expect(received.cafe).toEqual([]);

    expect((await api.call("POST", "/token/revoke", { body: { token } })).status).toBe(200);
    const after = await transfer("1.50");
    await ended;
    expect(received.bolt).not.toContain(after);
    await expect.poll(() => closes.map((close) => close.code)).toContain(4403);
    await cafe.dispose();
  });
});

/** Transfers to bolt until `seen()` holds one of them (a subscription starts asynchronously). */
async function transferUntilSeen(seen: () => number[]): Promise<number> {
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    const id = await transfer(`${attempt}.00`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (seen().includes(id)) return id;
  }
  throw new Error("no event arrived");
}

describe("tRPC over WebSocket (wsLink) at /trpc", () => {
  /** tRPC's envelope from a raw socket's messages. */
  const errorsOf = (closed: Closed) =>
    closed.messages.map(
      (message) => (JSON.parse(message) as { error?: { message: string; data: { code: string } } }).error,
    );

  it("answers UNAUTHORIZED in tRPC's envelope and closes, without connectionParams or with a bad token", async () => {
    const cookie = await sessionCookie("bolt", "bolt-pass");
    const none = await rawSocket("/trpc", [], { headers: { cookie } });
    expect(errorsOf(none)).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("connectionParams"),
        data: expect.objectContaining({ code: "UNAUTHORIZED" }),
      }),
    ]);
    const bad = await rawSocket("/trpc?connectionParams=1", [
      JSON.stringify({ method: "connectionParams", data: { authorization: "Bearer pat_not-a-real-token" } }),
    ]);
    expect(errorsOf(bad)).toEqual([
      expect.objectContaining({ message: "The token is invalid, expired or revoked." }),
    ]);
  });

  it("closes a socket that never sends its connectionParams, with TIMEOUT", async () => {
    const silent = await rawSocket("/trpc?connectionParams=1", []);
    expect(errorsOf(silent)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ code: "TIMEOUT" }) }),
    ]);
  }, 15_000);

  it("answers garbage with PARSE_ERROR and closes on a frame past the bound", async () => {
    const token = await api.token("bolt");
    const params = JSON.stringify({ method: "connectionParams", data: { authorization: `Bearer ${token}` } });
    const oversized = await rawSocket("/trpc?connectionParams=1", [params, Buffer.alloc(65 * 1024, 0x61)]);
    expect(oversized.code).toBe(1009);
    const socket = new WebSocket(`${wsUrl}/trpc?connectionParams=1`);
    const reply = await new Promise<string>((resolve, reject) => {
      socket.on("open", () => {
        socket.send(params);
        socket.send("{garbage");
      });
      socket.on("message", (data) => resolve(String(data)));
      socket.on("error", reject);
    });
    socket.close();
    expect(JSON.parse(reply)).toMatchObject({ id: null, error: { data: { code: "PARSE_ERROR" } } });
  });

  it("runs subscriptions only, at most eight at once, and delivers the caller's own events", async () => {
    const token = await api.token("bolt");
    const wsClient = createWSClient({
      url: `${wsUrl}/trpc`,
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
    try {
      await expect(client.me.query()).rejects.toMatchObject({
        data: { code: "METHOD_NOT_SUPPORTED" },
      });
      const received: number[] = [];
      const refused: string[] = [];
      const subscriptions = Array.from({ length: 9 }, () =>
        client.transactionUpdated.subscribe(undefined, {
          onData: (update) => received.push(update.transactionId),
          onError: (error) => refused.push(error.data?.code ?? error.message),
        }),
      );
      await expect.poll(() => refused).toEqual(["TOO_MANY_REQUESTS"]);
      const made = await transferUntilSeen(() => received);
      expect(received).toContain(made);
      for (const subscription of subscriptions) subscription.unsubscribe();
    } finally {
      await wsClient.close();
    }
  });
});

describe("tRPC over HTTP: the session cookie, and connectionParams in a URL", () => {
  it("refuses connectionParams in the query string in tRPC's envelope", async () => {
    const params = encodeURIComponent(JSON.stringify({ authorization: "Bearer pat_secret-in-a-url" }));
    const refused = await fetch(`${api.url}/trpc/transactionUpdated?connectionParams=${params}`, {
      headers: { accept: "text/event-stream" },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({
      message: expect.stringContaining("Use wsLink (WebSocket) with connectionParams"),
      data: { code: "BAD_REQUEST" },
    });
  });

  it("accepts the dashboard's cookie with the CSRF header from its own origin, and no other way", async () => {
    const cookie = await sessionCookie("acme", "acme-pass");
    const me = (headers: Record<string, string>) =>
      fetch(`${api.url}/trpc/me`, { headers: { cookie, ...headers } });
    const ok = await me({ "x-purse-csrf": "1", "sec-fetch-site": "same-origin" });
    expect(ok.status).toBe(200);
    expect((await ok.json()).result.data).toMatchObject({ name: "Acme Shop" });
    const noHeader = await me({});
    expect(noHeader.status).toBe(403);
    expect((await noHeader.json()).error.data.code).toBe("FORBIDDEN");
    const crossSite = await me({ "x-purse-csrf": "1", "sec-fetch-site": "same-site" });
    expect(crossSite.status).toBe(403);
  });

  it("streams the cookie session's own events over SSE until it signs out", async () => {
    const cookie = await sessionCookie("bolt", "bolt-pass");
    const response = await fetch(`${api.url}/trpc/transactionUpdated`, {
      headers: { cookie, "x-purse-csrf": "1", accept: "text/event-stream" },
    });
    expect(response.status).toBe(200);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new Error("no stream");
    let text = "";
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += value;
      }
    })();
    const made = await transferUntilSeen(() =>
      [...text.matchAll(/"transactionId":(\d+)/g)].map((match) => Number(match[1])),
    );
    expect(text).toContain(`"transactionId":${made}`);
    const signOut = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { cookie, "x-purse-csrf": "1", "content-type": "application/json" },
      body: JSON.stringify({ query: "mutation { signOut }" }),
    });
    expect(signOut.status).toBe(200);
    const after = await transfer("2.50");
    await reading;
    expect(text).not.toContain(`"transactionId":${after}`);
  });
});

describe("sockets per address", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "2" } });
  });
  afterAll(() => limited.close());

  it("refuses an address's third socket in a minute with 429 before the handshake, in each door's shape", async () => {
    const open = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = new WebSocket(`${limited.url.replace(/^http/, "ws")}${path}`, graphqlWs);
        socket.on("open", () => {
          socket.close();
          resolve({ status: 101, body: "" });
        });
        socket.on("unexpected-response", (_request, response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => {
            body += String(chunk);
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        socket.on("error", reject);
      });
    expect((await open("/graphql")).status).toBe(101);
    expect((await open("/trpc")).status).toBe(101);
    const graphql = await open("/graphql");
    expect(graphql.status).toBe(429);
    expect(JSON.parse(graphql.body)).toEqual({
      errors: [{ message: "Too many WebSocket connections from this address; retry in a minute." }],
    });
    const trpc = await open("/trpc");
    expect(trpc.status).toBe(429);
    expect(JSON.parse(trpc.body).error.data.code).toBe("TOO_MANY_REQUESTS");
  });
});
