import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { queryDatabase } from "../support/query-database.ts";
import { createTestCheckout, openTestAccount, type TestAccount } from "../support/test-mode.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite, verifiedEvent } from "../support/webhook-receiver.ts";

/**
 * Each time rule on test data follows its merchant's test clock (contract: "Test clock"), moved
 * through GraphQL and tRPC `advanceTestClock`; live data stays on real time.
 */
describe("a merchant's test clock drives every time rule of their test data", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let site: MerchantSite;
  let acme: TestAccount;
  let bolt: TestAccount;
  let orders = 0;
  const order = () => {
    orders += 1;
    return `clock-order-${process.pid}-${orders}`;
  };
  const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
    (await api.call("POST", "/graphql", { token, body: { query, variables } })).body;
  const advance = async (token: string, duration: string) => {
    const answer = await graphql(
      token,
      `mutation($duration: String!) { advanceTestClock(duration: $duration) {
        __typename ... on PurseError { code message } ... on MutationAdvanceTestClockSuccess { data { now advancedSeconds livemode } } } }`,
      { duration },
    );
    expect(answer.errors).toBeUndefined();
    return answer.data.advanceTestClock;
  };
  const show = async (token: string, externalId: string) =>
    (await api.call("GET", `/api/transaction/show?external_id=${externalId}`, { token })).body;

  beforeAll(async () => {
    site = await startMerchantSite();
    database = await createSeededDatabase();
    api = await startTestServer({
      database,
      env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000", PURSE_WEBHOOK_ALLOW_PRIVATE: "on", LOG_LEVEL: "error" },
    });
    acme = await openTestAccount(api, "acme", { USD: "100.00" });
    bolt = await openTestAccount(api, "bolt", { USD: "300.00" });
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
    if (database) await dropDatabase(database.name);
  });

  it("moves forward only, for test tokens only", async () => {
    expect(await advance(acme.token, "0s")).toMatchObject({
      __typename: "PurseError",
      code: "INVALID_VALUE",
    });
    expect(await advance(acme.token, "-1h")).toMatchObject({
      __typename: "PurseError",
      code: "INVALID_VALUE",
    });
    expect(await advance(acme.token, "1 hour")).toMatchObject({
      __typename: "PurseError",
      code: "INVALID_VALUE",
    });
    const live = await api.token("acme");
    expect(await advance(live, "1h")).toMatchObject({ __typename: "PurseError", code: "TEST_MODE_ONLY" });
  });

  it("expires a test checkout link, sends its FAIL notification and checkout.failed event, and lets it be replayed", async () => {
    const endpoint = (
      await graphql(
        acme.token,
        `mutation($url: String!) { createWebhookEndpoint(url: $url, events: ["checkout.failed"]) {
          __typename ... on PurseError { message } ... on MutationCreateWebhookEndpointSuccess { data { id secret livemode } } } }`,
        { url: `${site.url}/events` },
      )
    ).data.createWebhookEndpoint.data;
    expect(endpoint.livemode).toBe(false);
    const paymentId = order();
    const checkout = await createTestCheckout(
      api,
      acme,
      bolt.wallets["USD"] ?? "",
      "9.00",
      paymentId,
      site.url,
    );
    expect(checkout.status).toBe(200);
    expect(checkout.token).toMatch(/^test_chk_/);
    const liveCheckout = await createCheckout(api, site, "3.00");
    expect((await api.call("GET", new URL(checkout.url).pathname)).body).toContain("Test payment");

    const moved = await advance(acme.token, "31m");
    expect(moved.data).toMatchObject({ livemode: false });
    expect(moved.data.advancedSeconds).toBeGreaterThanOrEqual(31 * 60);

    // At once: no sweep had to wait for real time.
    expect((await show(acme.token, paymentId)).data.status).toBe("FAIL");
    // Closed at the clock's time, as its FAIL transaction was.
    const listed = await graphql(acme.token, "{ checkouts { paymentId completedAt } }");
    const closedAt = listed.data.checkouts.find(
      (each: { paymentId: string }) => each.paymentId === paymentId,
    ).completedAt;
    expect(Date.parse(`${closedAt.replace(" ", "T")}Z`)).toBeGreaterThan(Date.now() + 30 * 60_000);
    const [notification] = await site.waitFor(`/status/${paymentId}`);
    expect(JSON.parse(notification?.body ?? "{}")).toMatchObject({ payment_id: paymentId, status: "FAIL" });
    const [event] = await site.waitFor("/events");
    const verified = verifiedEvent(event ?? { path: "", headers: {}, body: "" }, endpoint.secret);
    expect(verified).toMatchObject({ type: "checkout.failed", livemode: false });
    expect((await api.call("GET", new URL(checkout.url).pathname)).body).toContain("expired");

    const replay = await api.call("POST", "/trpc/replayWebhookEvents", {
      token: acme.token,
      body: { endpoint: endpoint.id, events: [verified.id] },
    });
    expect(replay.body).toMatchObject({ result: {} });
    await site.waitFor("/events", 2);

    // The live checkout is on real time: its page still takes the payment.
    expect((await api.call("GET", new URL(liveCheckout.url).pathname)).body).toContain('id="pay-form"');

    // A checkout made now is made at the clock's time, and lives its 30 minutes from there.
    const laterId = order();
    const later = await createTestCheckout(api, acme, bolt.wallets["USD"] ?? "", "2.00", laterId, site.url);
    expect(later.status).toBe(200);
    const made = (
      await graphql(acme.token, "{ checkouts { paymentId createdAt expiredAt } }")
    ).data.checkouts.find((each: { paymentId: string }) => each.paymentId === laterId);
    const madeAt = Date.parse(`${made.createdAt.replace(" ", "T")}Z`);
    expect(madeAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(Date.parse(`${made.expiredAt.replace(" ", "T")}Z`) - madeAt).toBe(30 * 60_000);
  });

  it("a day forward delivers the webhook retries due", async () => {
    const paymentId = order();
    site.failPath(`/status/${paymentId}`, 1);
    await createTestCheckout(api, acme, bolt.wallets["USD"] ?? "", "2.00", paymentId, site.url);
    await advance(acme.token, "31m");
    await site.waitFor(`/status/${paymentId}`, 1);
    // Moved while the first attempt is still in flight, the clock would move that attempt's lease,
    // not its retry: the worker schedules the retry when it records the failure.
    await expect
      .poll(
        async () =>
          (
            await queryDatabase<{ code: number | null }>(
              database.url,
              "select last_status_code as code from purse_test.webhook_deliveries where url like $1",
              [`%/status/${paymentId}`],
            )
          )[0]?.code,
        { timeout: 10_000 },
      )
      .toBeTypeOf("number");
    // The first attempt failed; its retry is scheduled later in real time, brought due by a day.
    await advance(acme.token, "1d");
    const attempts = await site.waitFor(`/status/${paymentId}`, 2, 10_000);
    expect(attempts).toHaveLength(2);
  });

  it("records test movements at the clock's time, and the history's days follow it", async () => {
    const moved = await advance(bolt.token, "3d");
    const transfer = await api.call("POST", "/trpc/transfer", {
      token: bolt.token,
      body: { walletFrom: bolt.wallets["USD"], walletTo: acme.wallets["USD"], amount: "1.00" },
    });
    expect(transfer.body).toMatchObject({ result: { data: { id: expect.any(Number) } } });
    const id = transfer.body.result.data.id as number;
    // The merchant's history (partners have none) shows it at the payer's clock's time.
    const history = await api.call("GET", `/trpc/transactions?input=${encodeURIComponent('{"first":50}')}`, {
      token: acme.token,
    });
    const node = history.body.result.data.nodes.find((each: { id: number }) => each.id === id);
    const createdAt = Date.parse(node.createdAt);
    expect(Math.abs(createdAt - Date.parse(moved.data.now))).toBeLessThan(60_000);
    expect(createdAt - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    // The statement's days are the clock's: the clock's today holds the transfer, real today not.
    const statementOf = async (day: string) =>
      (
        await api.call(
          "GET",
          `/trpc/statement?input=${encodeURIComponent(JSON.stringify({ wallet: bolt.wallets["USD"], from: day, to: day }))}`,
          { token: bolt.token },
        )
      ).body.result.data.lines.map((line: { transactionId: number }) => line.transactionId);
    expect(await statementOf(moved.data.now.slice(0, 10))).toContain(id);
    expect(await statementOf(new Date().toISOString().slice(0, 10))).not.toContain(id);
  });

  it("an Idempotency-Key answers retries until its lifetime runs out on the clock, then is free again", async () => {
    const key = `clock-key-${process.pid}`;
    const transfer = (token: string) =>
      api.call("POST", "/api/transaction/transfer", {
        token,
        headers: { "idempotency-key": key },
        body: { wallet_from: bolt.wallets["USD"], wallet_to: acme.wallets["USD"], amount: "1.00" },
      });
    const first = await transfer(bolt.token);
    expect(first.status).toBe(200);
    const again = await transfer(bolt.token);
    expect(again.body.data.id).toBe(first.body.data.id);
    await advance(bolt.token, "31d");
    // A month on by bolt's clock: bolt's token lapsed with it, and the key is free.
    const token = await api.token(bolt.client.clientId, bolt.client.clientSecret);
    bolt = { ...bolt, token };
    const later = await transfer(token);
    expect(later.status).toBe(200);
    expect(later.body.data.id).not.toBe(first.body.data.id);
  });

  it("a test token lapses when its merchant's clock passes its lifetime; live tokens do not", async () => {
    const token = await api.token(acme.client.clientId, acme.client.clientSecret);
    const live = await api.token("acme");
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(200);
    await advance(token, "31d");
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(401);
    expect((await api.call("GET", "/api/wallets", { token: live })).status).toBe(200);
    acme = { ...acme, token: await api.token(acme.client.clientId, acme.client.clientSecret) };
    expect((await api.call("GET", "/api/wallets", { token: acme.token })).status).toBe(200);
  });

  it("a test voucher expires by the clock", async () => {
    const bought = await api.call("POST", "/api/vouchers/buy", {
      token: acme.token,
      body: { wallet_from: acme.wallets["USD"], amount: "5.00" },
    });
    expect(bought.body).toMatchObject({ status: true, livemode: false });
    const voucher = bought.body.data;
    const info = () =>
      api.call(
        "GET",
        `/api/vouchers/activation/info?voucher_number=${voucher.voucherNumber}&voucher_code=${voucher.secret}`,
        { token: bolt.token },
      );
    expect((await info()).body).toMatchObject({ status: true, livemode: false });
    await advance(acme.token, "400d");
    // 400 days on, the tokens of before have lapsed too: new ones.
    const merchant = await api.token(acme.client.clientId, acme.client.clientSecret);
    const payer = await api.token(bolt.client.clientId, bolt.client.clientSecret);
    const after = await api.call("GET", "/api/vouchers", { token: merchant });
    const listed = after.body.data.items.find(
      (item: { voucherNumber: string }) => item.voucherNumber === voucher.voucherNumber,
    );
    expect(listed.status).toBe(2);
    // Activation checks expiry itself, by the clock too.
    const activated = await api.call("POST", "/api/vouchers/activation/confirm", {
      token: payer,
      body: {
        voucher_number: voucher.voucherNumber,
        voucher_code: voucher.secret,
        wallet_to: bolt.wallets["USD"],
      },
    });
    expect(activated.status).toBe(422);
  });
});

describe("rate-limit windows on a test clock", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "5" } });
  });
  afterAll(() => api?.close());

  it("a window that refuses transfers opens again once the clock moves past it", async () => {
    const payer = await openTestAccount(api, "cafe", { USD: "50.00" });
    const payee = await openTestAccount(api, "acme", { USD: "0" });
    const transfer = () =>
      api.call("POST", "/api/transaction/transfer", {
        token: payer.token,
        body: { wallet_from: payer.wallets["USD"], wallet_to: payee.wallets["USD"], amount: "1.00" },
      });
    const statuses: number[] = [];
    for (let call = 0; call < 6; call += 1) statuses.push((await transfer()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 422]);
    const moved = await api.call("POST", "/trpc/advanceTestClock", {
      token: payer.token,
      body: { duration: "61s" },
    });
    expect(moved.status).toBe(200);
    expect((await transfer()).status).toBe(200);
  });
});
