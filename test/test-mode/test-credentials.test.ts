import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestAccount } from "../support/test-mode.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const mutation = `mutation { createTestCredentials {
  __typename
  ... on PurseError { code message }
  ... on MutationCreateTestCredentialsSuccess {
    data { clientId clientSecret formToken webhookSecret livemode wallets { number currency } }
  }
} }`;

/**
 * GraphQL `createTestCredentials` (the dashboard's Developers section): the dashboard's session
 * only, in either position of its test-mode switch; a bearer token, live or test, is refused, and
 * tRPC does not publish it. What it makes works as `purse clients create --test` credentials do.
 */
describe("createTestCredentials: the dashboard's session only", () => {
  let api: TestServer;
  let cookie: string;

  const asSession = async (testMode: boolean) =>
    (
      await api.call("POST", "/graphql", {
        headers: { cookie, "x-purse-csrf": "1", ...(testMode ? { "purse-mode": "test" } : {}) },
        body: { query: mutation },
      })
    ).body;
  const wallets = async (token: string) => (await api.call("GET", "/api/wallets", { token })).body;

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000", LOG_LEVEL: "error" } });
    const signIn = await api.call("POST", "/graphql", {
      headers: { "x-purse-csrf": "1" },
      body: { query: `mutation { signIn(login: "acme", password: "acme-pass") { __typename } }` },
    });
    cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^purse_session=/);
  });
  afterAll(async () => {
    await api?.close();
  });

  it("makes test credentials and a test wallet per live currency for the session, once per currency", async () => {
    const liveToken = await api.token("acme");
    const live = (await wallets(liveToken)).data as { number: string; currency: { code: string } }[];
    const currencies = [...new Set(live.map((wallet) => wallet.currency.code))].sort();
    expect(currencies.length).toBeGreaterThan(0);

    const first = await asSession(false);
    expect(first.errors).toBeUndefined();
    const made = first.data.createTestCredentials;
    expect(made.__typename).toBe("MutationCreateTestCredentialsSuccess");
    const { clientId, clientSecret, formToken, webhookSecret, livemode } = made.data;
    for (const value of [clientId, clientSecret, formToken]) expect(value).toMatch(/^test_/);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(livemode).toBe(false);
    const made1 = made.data.wallets as { number: string; currency: string }[];
    expect(made1.map((wallet) => wallet.currency).sort()).toEqual(currencies);
    for (const wallet of made1) expect(wallet.number).toMatch(/^test_/);

    // The credentials work: a test token that sees exactly the test wallets made.
    const testToken = await api.token(clientId, clientSecret);
    const seen = await wallets(testToken);
    expect(seen.livemode).toBe(false);
    expect((seen.data as { number: string }[]).map((wallet) => wallet.number).sort()).toEqual(
      made1.map((wallet) => wallet.number).sort(),
    );
    // And the live token still sees its live wallets only.
    expect(((await wallets(liveToken)).data as unknown[]).length).toBe(live.length);

    // Again, with the switch on: new credentials, no second wallet of a currency; marked test mode.
    const second = await asSession(true);
    expect(second.extensions).toEqual({ livemode: false });
    expect(second.data.createTestCredentials.data.clientId).not.toBe(clientId);
    expect(second.data.createTestCredentials.data.wallets).toEqual([]);
  });

  it("refuses a bearer token, live or test, and is not on tRPC", async () => {
    const live = await api.token("acme");
    const test = await openTestAccount(api, "acme", {});
    for (const token of [live, test.token]) {
      const answer = (await api.call("POST", "/graphql", { token, body: { query: mutation } })).body;
      expect(answer.data.createTestCredentials).toMatchObject({
        __typename: "PurseError",
        code: "SCOPE_MISSED",
      });
    }
    const trpc = await api.call("POST", "/trpc/createTestCredentials", { token: live, body: {} });
    expect(trpc.status).toBe(404);
  });

  it("testClock tells where the test clock stands, for test mode only", async () => {
    const clockQuery = `{ testClock { __typename ... on PurseError { code }
      ... on QueryTestClockSuccess { data { now advancedSeconds livemode } } } }`;
    const ask = async (token: string) =>
      (await api.call("POST", "/graphql", { token, body: { query: clockQuery } })).body.data.testClock;
    const test = await openTestAccount(api, "bolt", {});
    const before = await ask(test.token);
    expect(before.data).toMatchObject({ advancedSeconds: 0, livemode: false });
    const moved = await api.call("POST", "/graphql", {
      token: test.token,
      body: { query: `mutation { advanceTestClock(duration: "1h") { __typename } }` },
    });
    expect(moved.body.data.advanceTestClock.__typename).toBe("MutationAdvanceTestClockSuccess");
    const after = await ask(test.token);
    expect(after.data.advancedSeconds).toBe(3600);
    expect(Date.parse(after.data.now) - Date.parse(before.data.now)).toBeGreaterThanOrEqual(3_600_000);
    expect(await ask(await api.token("bolt"))).toMatchObject({
      __typename: "PurseError",
      code: "TEST_MODE_ONLY",
    });
  });
});
