import { dropDatabase, sampleFixture } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

/**
 * Issue 37 item 3 and the contract's row "Tokens for clients that ask every call", over real HTTP
 * on the `purse serve` stack (Redis counters, PostgreSQL): `/token`'s own limit per client, apart
 * from the flood limit per client id and address, and a bound on each client's live tokens. With
 * PURSE_TRUST_PROXY set to loopback, X-Forwarded-For stands for the caller's address.
 */
const floodLimit = 3;
const tokenLimit = 6;
const maxLiveTokens = 4;

/** One client of the cafe per test, so each starts with its own budgets. */
const clients = ["steady", "guessed", "bounded"] as const;

function fixture() {
  const world = sampleFixture();
  for (const client_id of clients) {
    world.clients.push({
      user_id: 3,
      client_id,
      client_secret: `${client_id}-secret`,
      form_token: `${client_id}-form-token`,
    });
  }
  return world;
}

let database: SeededDatabase;
let api: TestServer;
beforeAll(async () => {
  database = await createSeededDatabase(fixture());
  api = await startTestServer({
    database,
    env: {
      PURSE_RATE_LIMIT_PER_MINUTE: String(floodLimit),
      PURSE_TOKEN_RATE_LIMIT_PER_MINUTE: String(tokenLimit),
      PURSE_MAX_LIVE_TOKENS: String(maxLiveTokens),
      PURSE_TRUST_PROXY: "loopback",
    },
  });
});
afterAll(async () => {
  await api?.close();
  if (database) await dropDatabase(database.name);
});

const ask = (clientId: string, address: string, secret = `${clientId}-secret`) =>
  api.call("POST", "/token", {
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    headers: { "x-forwarded-for": address },
  });

describe("POST /token for a client that asks before every call", () => {
  it("issues more tokens from one address than the flood limit, up to the client's own limit, from any address", async () => {
    const answers = [];
    for (let call = 0; call < tokenLimit; call += 1) answers.push(await ask("steady", "198.51.100.10"));
    expect(answers.map((answer) => answer.status)).toEqual(Array(tokenLimit).fill(200));
    const over = await ask("steady", "198.51.100.10");
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "temporarily_unavailable" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // The client's own budget, wherever it asks from; other clients keep theirs.
    expect((await ask("steady", "198.51.100.11")).status).toBe(429);
    expect((await ask("bolt", "198.51.100.10")).status).toBe(200);
  });

  it("stops guesses from one address at the flood limit, and they never spend the client's own budget", async () => {
    for (let guess = 0; guess < floodLimit; guess += 1) {
      expect((await ask("guessed", "203.0.113.66", "wrong")).status).toBe(401);
    }
    // Refused before the secret's hash, even the right one, from that address.
    expect((await ask("guessed", "203.0.113.66")).status).toBe(429);
    const elsewhere = [];
    for (let call = 0; call < tokenLimit; call += 1) elsewhere.push(await ask("guessed", "203.0.113.67"));
    expect(elsewhere.map((answer) => answer.status)).toEqual(Array(tokenLimit).fill(200));
  });

  it("keeps at most PURSE_MAX_LIVE_TOKENS live tokens per client: the oldest stop working, the table stays bounded", async () => {
    const tokens: string[] = [];
    for (let call = 0; call < tokenLimit; call += 1) {
      const answer = await ask("bounded", `192.0.2.${call}`);
      expect(answer.status).toBe(200);
      tokens.push(answer.body.access_token);
    }
    const statuses = [];
    for (const token of tokens) statuses.push((await api.call("GET", "/api/wallets", { token })).status);
    const pushedOut = tokenLimit - maxLiveTokens;
    expect(statuses).toEqual([...Array(pushedOut).fill(401), ...Array(maxLiveTokens).fill(200)]);
    const [rows] = await queryDatabase<{ count: string }>(
      database.url,
      `select count(*) as count from access_tokens t join clients c on c.id = t.client_id
        where c.client_id = 'bounded'`,
    );
    expect(Number(rows?.count)).toBe(maxLiveTokens);
  });
});
