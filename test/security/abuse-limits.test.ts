import { checkoutSignature } from "@purse/engine";
import { dropDatabase, sampleFixture } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededDatabase, startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Issue 9 item 7: calls before a user is known are rate-limited by client id and client address,
 * over real HTTP on the real `purse serve` stack (Redis counters). With PURSE_TRUST_PROXY set to
 * loopback, X-Forwarded-For stands for the caller's address, so one test process can be many
 * callers.
 */
const limit = 3;
const locked = { status: false, message: "Method locked please try again later", code: "RATE_LIMITED" };

function fixture() {
  const world = sampleFixture();
  // A second client of the cafe, so the payer-sign-in test has its own checkout budget.
  world.clients.push({
    user_id: 3,
    client_id: "cafe-2",
    client_secret: "cafe-2-secret",
    form_token: "cafe-2-form-token",
  });
  return world;
}

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({
    fixture: fixture(),
    env: { PURSE_RATE_LIMIT_PER_MINUTE: String(limit), PURSE_TRUST_PROXY: "loopback" },
  });
});
afterAll(() => api.close());

const from = (address: string) => ({ "x-forwarded-for": address });

function tokenCall(clientId: string, secret: string, address: string) {
  return api.call("POST", "/token", {
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    headers: from(address),
  });
}

async function tokenFor(clientId: string, address: string): Promise<string> {
  const response = await tokenCall(clientId, `${clientId}-secret`, address);
  expect(response.status).toBe(200);
  return response.body.access_token;
}

function checkoutCall(formToken: string, walletTo: string, amount: string, id: string, address: string) {
  const fields = { wallet_to: walletTo, wallet_from: "U100000020", amount, id };
  return api.call("POST", "/api/processing/checkout", {
    body: { ...fields, signature: checkoutSignature(fields, formToken), user_info: `payer-${id}` },
    headers: from(address),
  });
}

describe("POST /token before the client is known", () => {
  it("answers call N+1 from one client id and address with 429, Retry-After and temporarily_unavailable, before checking the secret", async () => {
    for (let attempt = 0; attempt < limit; attempt += 1) {
      const wrong = await tokenCall("acme", "guessed-secret", "198.51.100.1");
      expect(wrong).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    }
    // Even the right secret is refused now: the limit comes before the hash.
    const refused = await fetch(`${api.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/json", ...from("198.51.100.1") },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
      }),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "temporarily_unavailable" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("leaves the same client from another address, and another client from that address, unaffected", async () => {
    for (let attempt = 0; attempt <= limit; attempt += 1) await tokenCall("bolt", "nope", "198.51.100.2");
    expect((await tokenCall("bolt", "nope", "198.51.100.2")).status).toBe(429);
    expect((await tokenCall("bolt", "bolt-secret", "198.51.100.3")).status).toBe(200);
    expect((await tokenCall("cafe", "cafe-secret", "198.51.100.2")).status).toBe(200);
  });
});

describe("checkout creation before a user is known", () => {
  it("stops a form-token holder probing the payer's balance, from any address (per client)", async () => {
    const probes = [];
    for (let attempt = 0; attempt < limit; attempt += 1) {
      probes.push(
        await checkoutCall(
          "acme-form-token",
          "U100000010",
          "900.00",
          `probe-${attempt}`,
          `203.0.113.${attempt}`,
        ),
      );
    }
    expect(probes.map((probe) => probe.body.message)).toEqual(Array(limit).fill("Amount is not correct"));
    const next = await checkoutCall("acme-form-token", "U100000010", "900.00", "probe-x", "203.0.113.99");
    expect(next).toMatchObject({ status: 422, body: locked });
    // Another client, same address: unaffected.
    const other = await checkoutCall(
      "cafe-form-token",
      "U100000030",
      "10.00",
      "cafe-order-1",
      "203.0.113.99",
    );
    expect(other.status).toBe(200);
  });

  it("limits one address before any lookup, and leaves other addresses alone", async () => {
    for (let attempt = 0; attempt < limit; attempt += 1) {
      const forged = await checkoutCall(
        "not-the-form-token",
        "U100000030",
        "10.00",
        `forged-${attempt}`,
        "203.0.113.150",
      );
      expect(forged.body.message).toBe("Signature not identical");
    }
    const genuine = await checkoutCall(
      "cafe-form-token",
      "U100000030",
      "10.00",
      "cafe-order-2",
      "203.0.113.150",
    );
    expect(genuine).toMatchObject({ status: 422, body: locked });
    const elsewhere = await checkoutCall(
      "cafe-form-token",
      "U100000030",
      "10.00",
      "cafe-order-2",
      "203.0.113.151",
    );
    expect(elsewhere.status).toBe(200);
  });

  it("limits one address on GraphQL and tRPC too, and leaves other addresses alone", async () => {
    const fields = (id: string, formToken: string) => {
      const signed = { wallet_to: "U100000030", wallet_from: "U100000020", amount: "10.00", id };
      return { ...signed, signature: checkoutSignature(signed, formToken) };
    };
    const viaGraphQL = (id: string, formToken: string, address: string) => {
      const f = fields(id, formToken);
      return api.call("POST", "/graphql", {
        headers: from(address),
        body: {
          query: `mutation($input: CheckoutInput!) { createCheckout(input: $input) {
            __typename ... on PurseError { message } ... on MutationCreateCheckoutSuccess { data { url } } } }`,
          variables: {
            input: {
              walletTo: f.wallet_to,
              walletFrom: f.wallet_from,
              amount: f.amount,
              id: f.id,
              signature: f.signature,
              userInfo: `payer-${id}`,
            },
          },
        },
      });
    };
    const viaTrpc = (id: string, formToken: string, address: string) => {
      const f = fields(id, formToken);
      return api.call("POST", "/trpc/checkout", {
        headers: from(address),
        body: {
          walletTo: f.wallet_to,
          walletFrom: f.wallet_from,
          amount: f.amount,
          id: f.id,
          signature: f.signature,
          userInfo: `payer-${id}`,
        },
      });
    };
    for (let attempt = 0; attempt < limit; attempt += 1) {
      const forged = await viaGraphQL(`gql-forged-${attempt}`, "not-the-form-token", "203.0.113.160");
      expect(forged.body.data.createCheckout.message).toBe("Signature not identical");
    }
    const lockedOut = await viaGraphQL("gql-genuine", "cafe-2-form-token", "203.0.113.160");
    expect(lockedOut.body.data.createCheckout.message).toBe(locked.message);
    const elsewhere = await viaGraphQL("gql-elsewhere", "cafe-2-form-token", "203.0.113.161");
    expect(elsewhere.body.data.createCheckout.__typename).toBe("MutationCreateCheckoutSuccess");

    for (let attempt = 0; attempt < limit; attempt += 1) {
      const forged = await viaTrpc(`trpc-forged-${attempt}`, "not-the-form-token", "203.0.113.170");
      expect(forged.body.error.message).toBe("Signature not identical");
    }
    const trpcLockedOut = await viaTrpc("trpc-genuine", "cafe-2-form-token", "203.0.113.170");
    expect(trpcLockedOut.body.error.message).toBe(locked.message);
    const trpcElsewhere = await viaTrpc("trpc-elsewhere", "cafe-2-form-token", "203.0.113.171");
    expect(trpcElsewhere.status).toBe(200);
  });
});

describe("voucher info and confirm", () => {
  it("refuses the N+1th guess of a voucher code per user, and leaves other users alone", async () => {
    const acme = await tokenFor("acme", "192.0.2.10");
    const cafe = await tokenFor("cafe", "192.0.2.10");
    const info = (token: string, code: string) =>
      api.call("GET", `/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=${code}`, { token });
    const confirm = (token: string, code: string) =>
      api.call("POST", "/api/vouchers/activation/confirm", {
        token,
        body: { voucher_number: "V-0001", voucher_code: code, wallet_to: "U100000010" },
      });
    for (let guess = 0; guess < limit; guess += 1) {
      expect((await info(acme, `guess-${guess}`)).body.message).toBe("Voucher invalid");
      expect((await confirm(acme, `guess-${guess}`)).body.message).toBe("Voucher invalid");
    }
    expect(await info(acme, "1111-2222-3333")).toMatchObject({ status: 422, body: locked });
    expect(await confirm(acme, "1111-2222-3333")).toMatchObject({ status: 422, body: locked });
    expect((await info(cafe, "1111-2222-3333")).status).toBe(200);
  });
});

describe("payer sign-in on the hosted page", () => {
  it("limits wrong passwords per login and address, so nobody elsewhere can lock the payer out", async () => {
    const created = await checkoutCall(
      "cafe-2-form-token",
      "U100000030",
      "10.00",
      "signin-order",
      "192.0.2.50",
    );
    expect(created.status).toBe(200);
    const url: string = created.body.data.url;
    const token = url.slice(url.lastIndexOf("/") + 1);
    const pay = (password: string, address: string) =>
      api.call("POST", "/api/processing/pay", {
        body: { token, login: "bolt", password, action: "pay" },
        headers: from(address),
      });
    for (let attempt = 0; attempt < limit; attempt += 1) {
      expect((await pay("wrong", "192.0.2.66")).body.message).toBe("Hash is not valid");
    }
    expect(await pay("bolt-pass", "192.0.2.66")).toMatchObject({ status: 422, body: locked });
    const payer = await pay("bolt-pass", "192.0.2.67");
    expect(payer).toMatchObject({ status: 200, body: { status: true, data: { status: "SUCCESS" } } });
  });
});

describe("without PURSE_TRUST_PROXY", () => {
  let direct: TestServer;
  beforeAll(async () => {
    direct = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: String(limit) } });
  });
  afterAll(() => direct.close());

  it("ignores X-Forwarded-For: a client cannot pick a fresh address per attempt", async () => {
    const statuses = [];
    for (let attempt = 0; attempt <= limit; attempt += 1) {
      const response = await direct.call("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: "acme", client_secret: "guess" },
        headers: from(`198.51.100.${100 + attempt}`),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("two processes on one Redis", () => {
  it("share the /token budget: calls on the first count on the second", async () => {
    const database = await createSeededDatabase();
    const env = { PURSE_RATE_LIMIT_PER_MINUTE: String(limit) };
    const one = await startTestServer({ database, env });
    const two = await startTestServer({ database, env });
    try {
      const attempt = (server: TestServer) =>
        server.call("POST", "/token", {
          body: { grant_type: "client_credentials", client_id: "acme", client_secret: "guess" },
        });
      for (let call = 0; call < limit; call += 1) expect((await attempt(one)).status).toBe(401);
      expect((await attempt(two)).status).toBe(429);
    } finally {
      await one.close();
      await two.close();
      await dropDatabase(database.name);
    }
  });
});
