import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Issue 37 item 4, through the real `purse serve` stack: REST refusals a program can read. Every
 * error body carries a machine-readable `code` beside the specification's fields (the same code
 * GraphQL and tRPC give), the rate limit's 422 says how long to wait (`Retry-After`), and a
 * replayed answer says it was replayed (`Idempotent-Replayed: true`).
 */
/** Per user and route; each user below stays within it but bolt, whose budget the first test spends. */
const limit = 8;
const transferPath = "/api/transaction/transfer";

let api: TestServer;
let acme: string;
let bolt: string;
let cafe: string;
beforeAll(async () => {
  api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: String(limit) } });
  [acme, bolt, cafe] = [await api.token("acme"), await api.token("bolt"), await api.token("cafe")];
});
afterAll(() => api.close());

const transfer = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call("POST", transferPath, { token, body, headers });

describe("the rate limit's refusal", () => {
  it("answers the specification's 422 with Retry-After: whole seconds, within the one-minute window", async () => {
    // Bolt's budget: each call is a refusal the engine charges before anything else.
    const body = { wallet_from: "U100000020", wallet_to: "U999", amount: "1.00" };
    const started = Date.now();
    for (let call = 0; call < limit; call += 1) {
      const refused = await transfer(bolt, body);
      expect(refused.body.code).toBe("WALLET_TO_NOT_EXISTS");
      expect(refused.headers.get("retry-after")).toBeNull();
    }
    const limited = await transfer(bolt, body);
    expect(limited.status).toBe(422);
    expect(limited.body).toEqual({
      status: false,
      message: "Method locked please try again later",
      code: "RATE_LIMITED",
    });
    const wait = limited.headers.get("retry-after");
    expect(wait).toMatch(/^\d+$/);
    // The first of the calls just made leaves the one-minute window that long after it was made.
    const sinceFirst = (Date.now() - started) / 1000;
    expect(Number(wait)).toBeGreaterThanOrEqual(Math.floor(60 - sinceFirst));
    expect(Number(wait)).toBeLessThanOrEqual(60);
  });
});

describe("every refusal's code", () => {
  it.each([
    ["no token", () => api.call("GET", "/api/wallets"), 401, "UNAUTHORIZED"],
    [
      "a revoked-looking token",
      () => api.call("GET", "/api/wallets", { token: "nope" }),
      401,
      "UNAUTHORIZED",
    ],
    ["an unknown path", () => api.call("GET", "/api/nothing-here", { token: acme }), 404, "NOT_FOUND"],
    [
      "a transaction the caller cannot see",
      () => api.call("GET", "/api/transaction/show?id=999999", { token: acme }),
      404,
      "NOT_FOUND",
    ],
    ["a missing field", () => transfer(acme, { wallet_to: "U100000020", amount: "1" }), 422, "BLANK"],
    [
      "a rule of the API",
      () => transfer(acme, { wallet_from: "U100000010", wallet_to: "U100000020", amount: "0.50" }),
      422,
      "MIN_AMOUNT",
    ],
    [
      "malformed JSON",
      () => api.call("POST", transferPath, { token: acme, body: '{"wallet_from":' }),
      400,
      "BAD_REQUEST",
    ],
    [
      "another media type",
      () =>
        api.call("POST", transferPath, { token: acme, body: "x", headers: { "content-type": "text/plain" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "a body past the route's limit",
      () => transfer(acme, { wallet_from: "U100000010", description: "x".repeat(100_000) }),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "bad percent-encoding",
      () => api.call("GET", "/api/wallets/search/%E0%A4%A", { token: acme }),
      400,
      "BAD_REQUEST",
    ],
    [
      "an over-long path parameter",
      () => api.call("GET", `/api/wallets/search/${"x".repeat(6000)}`, { token: acme }),
      414,
      "URI_TOO_LONG",
    ],
    [
      "headers past the HTTP parser's limit",
      () => api.call("GET", `/api/wallets?filter=${"x".repeat(20_000)}`, { token: acme }),
      431,
      "REQUEST_HEADER_FIELDS_TOO_LARGE",
    ],
    [
      "a session cookie sent from another site",
      () =>
        api.call("GET", "/api/transactions/export", {
          headers: { cookie: `purse_session=${"a".repeat(43)}`, "sec-fetch-site": "cross-site" },
        }),
      403,
      "CROSS_SITE_REQUEST",
    ],
  ] as const)("%s: the status and text as before, and the code", async (_case, send, status, code) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ status: false, message: expect.any(String), code });
  });

  it("a refusal with a field and a translation keeps them, the code beside", async () => {
    const answer = await transfer(acme, {
      wallet_from: "U100000010",
      wallet_to: "U100000020",
      amount: "abc",
    });
    expect(answer.body).toEqual({
      status: false,
      message: "This value should be of type numeric.",
      errors: { amount: ["This value should be of type numeric."] },
      code: "NOT_NUMERIC",
    });
  });

  it("is the code GraphQL and tRPC give for the same refusal", async () => {
    const input = { walletFrom: "U100000020", walletTo: "U100000010", amount: "1.00" };
    const rest = await transfer(acme, {
      wallet_from: input.walletFrom,
      wallet_to: input.walletTo,
      amount: "1.00",
    });
    const graphql = await api.call("POST", "/graphql", {
      token: acme,
      body: {
        query:
          "mutation($input: TransferInput!) { transfer(input: $input) { ... on PurseError { code message } } }",
        variables: { input },
      },
    });
    const trpc = await api.call("POST", "/trpc/transfer", { token: acme, body: input });
    expect(rest.body.code).toBe("WALLET_FROM_NOT_EXISTS");
    expect(graphql.body.data.transfer).toEqual({ code: rest.body.code, message: rest.body.message });
    expect(trpc.body.error.data.purseCode).toBe(rest.body.code);
  });
});

describe("a replayed answer", () => {
  const body = (paymentId: string, amount = "1.00") => ({
    wallet_from: "U100000030",
    wallet_to: "U100000020",
    amount,
    payment_id: paymentId,
  });

  it("says Idempotent-Replayed: true on a repeated payment_id, and nothing on the first call", async () => {
    const first = await transfer(cafe, body("replay-1"));
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await transfer(cafe, body("replay-1"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // Reused with another body: a refusal, never marked a replay.
    const other = await transfer(cafe, body("replay-1", "2.00"));
    expect(other.body).toMatchObject({ message: "Order id is not unique", code: "ORDER_ID_NOT_UNIQUE" });
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("says it on a repeated Idempotency-Key, for a transfer and for a voucher purchase", async () => {
    const keyed = () =>
      transfer(
        cafe,
        { wallet_from: "U100000030", wallet_to: "U100000020", amount: "1.00" },
        { "idempotency-key": "replay-key-1" },
      );
    const sent = await keyed();
    expect(sent.status).toBe(200);
    expect(sent.headers.get("idempotent-replayed")).toBeNull();
    const resent = await keyed();
    expect(resent.body).toEqual(sent.body);
    expect(resent.headers.get("idempotent-replayed")).toBe("true");
    const purchase = () =>
      api.call("POST", "/api/vouchers/buy", {
        token: cafe,
        body: { wallet_from: "U100000030", amount: "1.00" },
        headers: { "idempotency-key": "replay-voucher-1" },
      });
    const bought = await purchase();
    expect(bought.status).toBe(200);
    expect(bought.headers.get("idempotent-replayed")).toBeNull();
    const again = await purchase();
    expect(again.body).toEqual(bought.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});
