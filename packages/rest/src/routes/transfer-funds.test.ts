import {
  balancesOf,
  type Envelope,
  errorOf,
  errorWorld,
  type RestHarness,
  shapeOf,
  slowRouteLock,
  startRestHarness,
} from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../http/error-body.ts";

const path = "/api/transaction/transfer";
type Transferred = Envelope<{ id: number; message: string }>;

describe("POST /api/transaction/transfer", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: errorWorld() });
    acme = await api.token("acme");
    bolt = await api.token("bolt");
  });
  afterAll(() => api.close());

  it("moves the amount, charges the sender the commission and answers {status, data: {id, message}}", async () => {
    const response = await api.call<Transferred>("POST", path, {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10.00", description: "rent" },
    });
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({ status: "boolean", data: "object" });
    expect(shapeOf(response.body.data)).toEqual({ id: "number", message: "string" });
    expect(response.body.status).toBe(true);
    // 10.00 + 1% + 0.10 fixed commission.
    expect((await balancesOf(api, acme))["U100000010"]).toBe(489.8);
    expect((await balancesOf(api, bolt))["U100000020"]).toBe(260);
  });

  it("takes payment_id as a JSON integer meaning its decimal text, and refuses one beyond 2^53-1", async () => {
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" };
    const first = await api.call<Transferred>("POST", path, {
      token: acme,
      body: { ...body, payment_id: 7001 },
    });
    expect(first.status).toBe(200);
    // The same id as text: the first transfer again, nothing moved twice.
    const again = await api.call<Transferred>("POST", path, {
      token: acme,
      body: { ...body, payment_id: "7001" },
    });
    expect(again.body).toEqual(first.body);
    const unsafe = await api.call("POST", path, { token: acme, body: { ...body, payment_id: 2 ** 53 } });
    expect(unsafe.status).toBe(422);
  });

  it("accepts a bare number as amount, and a partner may transfer too", async () => {
    const response = await api.call<Transferred>("POST", path, {
      token: bolt,
      body: { wallet_from: "U100000020", wallet_to: "U100000010", amount: 2.5 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toEqual(expect.any(Number));
  });

  it("reads a JSON number amount digit for digit: more decimals than a double keeps are refused, exponents are exact", async () => {
    const raw = (amount: string) =>
      api.call<Transferred>("POST", path, {
        token: acme,
        body: `{"wallet_from":"U100000010","wallet_to":"U100000020","amount":${amount}}`,
      });
    // As a double this is 2: charging 2.00 would not be what the client wrote.
    const tooPrecise = await raw("1.999999999999999999");
    expect(tooPrecise.status).toBe(422);
    expect(tooPrecise.body).toEqual(
      errorOf("TOO_PRECISE", "This value should have at most 2 decimal places.", "amount"),
    );
    expect((await raw("1.0000000000000001")).status).toBe(422);
    const before = (await balancesOf(api, bolt))["U100000020"] ?? 0;
    expect((await raw("1.50e1")).status).toBe(200);
    expect((await raw("2.50")).status).toBe(200);
    expect((await balancesOf(api, bolt))["U100000020"]).toBeCloseTo(before + 17.5, 2);
  });

  const blank = "This value should not be blank.";
  const rows: [string, Record<string, unknown>, ErrorBody["code"], string, string?][] = [
    ["wallet_from missing", { wallet_to: "U100000020", amount: "1" }, "BLANK", blank, "wallet_from"],
    [
      "wallet_from null",
      { wallet_from: null, wallet_to: "U100000020", amount: "1" },
      "BLANK",
      blank,
      "wallet_from",
    ],
    [
      "wallet_to empty",
      { wallet_from: "U100000010", wallet_to: "", amount: "1" },
      "BLANK",
      blank,
      "wallet_to",
    ],
    [
      "wallet_to spaces",
      { wallet_from: "U100000010", wallet_to: "  ", amount: "1" },
      "BLANK",
      blank,
      "wallet_to",
    ],
    ["amount missing", { wallet_from: "U100000010", wallet_to: "U100000020" }, "BLANK", blank, "amount"],
    [
      "amount null",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: null },
      "BLANK",
      blank,
      "amount",
    ],
    [
      "amount empty",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "" },
      "BLANK",
      blank,
      "amount",
    ],
    [
      "amount zero",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "0" },
      "NOT_POSITIVE",
      "This value should be positive.",
      "amount",
    ],
    [
      "amount negative",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: -5 },
      "NOT_POSITIVE",
      "This value should be positive.",
      "amount",
    ],
    [
      "amount text",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "ten" },
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "amount",
    ],
    [
      "amount object",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: { value: 1 } },
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "amount",
    ],
    [
      "amount boolean",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: true },
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "amount",
    ],
    [
      "wallet_from not text",
      { wallet_from: 100000010, wallet_to: "U100000020", amount: "1" },
      "INVALID_VALUE",
      "This value is not valid.",
      "wallet_from",
    ],
    [
      "amount too precise",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.001" },
      "TOO_PRECISE",
      "This value should have at most 2 decimal places.",
      "amount",
    ],
    [
      "wallet_to unknown",
      { wallet_from: "U100000010", wallet_to: "U999", amount: "5" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_to deleted",
      { wallet_from: "U100000010", wallet_to: "U100000022", amount: "5" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_to the sender's own other wallet",
      { wallet_from: "U100000010", wallet_to: "U100000015", amount: "5" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_to the same wallet",
      { wallet_from: "U100000010", wallet_to: "U100000010", amount: "5" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_from unknown",
      { wallet_from: "U999", wallet_to: "U100000020", amount: "5" },
      "WALLET_FROM_NOT_EXISTS",
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      "wallet_from inactive (NEW)",
      { wallet_from: "U100000012", wallet_to: "U100000020", amount: "5" },
      "WALLET_FROM_NOT_EXISTS",
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      "wallet_from another user's",
      { wallet_from: "U100000020", wallet_to: "U100000030", amount: "5" },
      "WALLET_FROM_NOT_EXISTS",
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      "currencies differ",
      { wallet_from: "U100000010", wallet_to: "E100000021", amount: "5" },
      "CURRENCIES_NOT_EQUAL",
      "Currencies are not equals",
    ],
    [
      "below the minimum",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "0.99" },
      "MIN_AMOUNT",
      "Minimum amount exceeded 1.00 for USD",
      "amount",
    ],
    [
      "above the maximum",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10000.01" },
      "MAX_AMOUNT",
      "Maximum amount exceeded 10000.00 for USD",
      "amount",
    ],
    [
      "above the receiver's amountLimit",
      { wallet_from: "U100000010", wallet_to: "U100000030", amount: "30.00" },
      "MAX_AMOUNT",
      "Maximum amount exceeded 100.00 for USD",
    ],
    [
      "currency disabled",
      { wallet_from: "G100000013", wallet_to: "G100000023", amount: "5" },
      "CURRENCY_DISABLED",
      "Currency is disabled",
    ],
    [
      "direction closed for the currency",
      { wallet_from: "C100000014", wallet_to: "C100000024", amount: "5" },
      "DIRECTION_INACTIVE",
      "Direction not active",
    ],
    [
      "wallet may not send",
      { wallet_from: "U100000015", wallet_to: "U100000020", amount: "5" },
      "DIRECTION_INACTIVE",
      "Direction not active",
    ],
    [
      "more than the balance after commission",
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "9000" },
      "INSUFFICIENT_FUNDS",
      "balance - amount - commission < 0",
    ],
  ];

  it.each(rows)("refuses %s with 422 and the spec's message", async (_name, body, code, message, field) => {
    const before = await balancesOf(api, acme);
    const response = await api.call("POST", path, { token: acme, body });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorOf(code, message, field));
    expect(await balancesOf(api, acme)).toEqual(before);
  });

  it("refuses a blocked sender and a blocked recipient with User is blocked and their translation keys", async () => {
    const dora = await api.token("dora");
    const sender = await api.call("POST", path, {
      token: dora,
      body: { wallet_from: "U100000040", wallet_to: "U100000020", amount: "5" },
    });
    expect(sender.status).toBe(422);
    expect(sender.body).toEqual(
      errorOf("SENDER_BLOCKED", "User is blocked", undefined, "server_error.sender_account_is_blocked"),
    );
    const recipient = await api.call("POST", path, {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000040", amount: "5" },
    });
    expect(recipient.status).toBe(422);
    expect(recipient.body).toEqual(
      errorOf("RECIPIENT_BLOCKED", "User is blocked", undefined, "server_error.recipient_account_is_blocked"),
    );
  });

  it("answers 401 Unauthorized for a missing, unknown, malformed or expired token", async () => {
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1" };
    const expiring = await api.token("acme");
    await api.changeToken(expiring, "expires_at = now() - interval '1 second'");
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Bearer nope" },
      { authorization: `Basic ${Buffer.from("acme:acme-secret").toString("base64")}` },
      { authorization: acme },
      { authorization: `Bearer ${expiring}` },
    ];
    for (const headers of attempts) {
      const response = await api.call("POST", path, { headers, body });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
    }
  });

  it("answers 403 Sorry scope missed for a token without the api scope", async () => {
    const narrow = await api.token("acme");
    await api.changeToken(narrow, "scope = 'read'");
    const response = await api.call("POST", path, {
      token: narrow,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1" },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: false, message: "Sorry scope missed", code: "SCOPE_MISSED" });
  });

  describe("idempotency", () => {
    it("answers a repeated payment_id with the same body with the first id and moves nothing", async () => {
      const body = {
        wallet_from: "U100000020",
        wallet_to: "U100000010",
        amount: "3.00",
        payment_id: "bolt-42",
      };
      const first = await api.call<Transferred>("POST", path, { token: bolt, body });
      expect(first.status).toBe(200);
      const before = await balancesOf(api, bolt);
      const again = await api.call<Transferred>("POST", path, { token: bolt, body });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await balancesOf(api, bolt)).toEqual(before);
    });

    it("refuses the same payment_id with another body: Order id is not unique", async () => {
      const body = {
        wallet_from: "U100000020",
        wallet_to: "U100000010",
        amount: "3.00",
        payment_id: "bolt-43",
      };
      expect((await api.call("POST", path, { token: bolt, body })).status).toBe(200);
      const conflict = await api.call("POST", path, { token: bolt, body: { ...body, amount: "4.00" } });
      expect(conflict.status).toBe(422);
      expect(conflict.body).toEqual(
        expect.objectContaining({
          status: false,
          message: "Order id is not unique",
          code: "ORDER_ID_NOT_UNIQUE",
        }),
      );
    });

    it("keeps payment_ids per user: another user's same payment_id is a new transfer", async () => {
      const shared = "shared-order-1";
      const one = await api.call<Transferred>("POST", path, {
        token: bolt,
        body: { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.00", payment_id: shared },
      });
      const two = await api.call<Transferred>("POST", path, {
        token: acme,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00", payment_id: shared },
      });
      expect([one.status, two.status]).toEqual([200, 200]);
      expect(two.body.data.id).not.toBe(one.body.data.id);
    });

    it("treats an empty payment_id as none: two such transfers are two transfers", async () => {
      const body = { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.25", payment_id: "" };
      const one = await api.call<Transferred>("POST", path, { token: bolt, body });
      const two = await api.call<Transferred>("POST", path, { token: bolt, body });
      expect([one.status, two.status]).toEqual([200, 200]);
      expect(two.body.data.id).not.toBe(one.body.data.id);
    });

    it("refuses an Idempotency-Key reused for another payment_id, and replays it with the same one", async () => {
      const body = { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.75" };
      const headers = { "idempotency-key": "key-orders" };
      const first = await api.call<Transferred>("POST", path, {
        token: bolt,
        body: { ...body, payment_id: "inv-1001" },
        headers,
      });
      expect(first.status).toBe(200);
      const before = await balancesOf(api, bolt);
      // Told "done" for inv-1002, the client would believe in a payment that no row carries.
      const reused = await api.call("POST", path, {
        token: bolt,
        body: { ...body, payment_id: "inv-1002" },
        headers,
      });
      expect(reused.status).toBe(422);
      expect(reused.body).toEqual(expect.objectContaining({ message: "Order id is not unique" }));
      const again = await api.call<Transferred>("POST", path, {
        token: bolt,
        body: { ...body, payment_id: "inv-1001" },
        headers,
      });
      expect(again.body.data.id).toBe(first.body.data.id);
      // The payment_id alone still finds it, header or none.
      const byPaymentId = await api.call<Transferred>("POST", path, {
        token: bolt,
        body: { ...body, payment_id: "inv-1001" },
      });
      expect(byPaymentId.body.data.id).toBe(first.body.data.id);
      expect(await balancesOf(api, bolt)).toEqual(before);
    });

    it("honours the Idempotency-Key header the same way", async () => {
      const body = { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.50" };
      const headers = { "idempotency-key": "key-7" };
      const one = await api.call<Transferred>("POST", path, { token: bolt, body, headers });
      const before = await balancesOf(api, bolt);
      const two = await api.call<Transferred>("POST", path, { token: bolt, body, headers });
      expect([one.status, two.status]).toEqual([200, 200]);
      expect(two.body.data.id).toBe(one.body.data.id);
      expect(await balancesOf(api, bolt)).toEqual(before);
      const other = await api.call<Transferred>("POST", path, {
        token: bolt,
        body,
        headers: { "idempotency-key": "key-8" },
      });
      expect(other.status).toBe(200);
      expect(other.body.data.id).not.toBe(one.body.data.id);
    });
  });

  it("lets one of many simultaneous identical transfers through: the rest are replays or route-locked", async () => {
    const before = (await balancesOf(api, acme))["U100000010"] ?? 0;
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "7.00", payment_id: "race-1" };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.call<Transferred | { message: string }>("POST", path, { token: acme, body }),
      ),
    );
    const ids = new Set<number>();
    for (const response of responses) {
      if (response.status === 200 && "data" in response.body) ids.add(response.body.data.id);
      else {
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          status: false,
          message: "Route locked to avoid duplication",
          code: "ROUTE_LOCKED",
        });
      }
    }
    expect(ids.size).toBe(1);
    // 7.00 + 1% + 0.10 commission, taken once.
    expect((await balancesOf(api, acme))["U100000010"]).toBeCloseTo(before - 7.17, 2);
  });
});

describe("the route lock, while a transfer is in progress", () => {
  let api: RestHarness;
  beforeAll(async () => {
    // The lock is held 200 ms longer than the work takes, so the requests surely overlap.
    api = await startRestHarness({ wrapDeps: slowRouteLock(200) });
  });
  afterAll(() => api.close());

  it("answers exactly one of simultaneous identical calls with 200 and the others with 422 Route locked", async () => {
    const acme = await api.token("acme");
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "5.00" };
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.call<Transferred | { message: string }>("POST", path, { token: acme, body }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 422, 422, 422, 422, 422]);
    for (const response of responses.filter((candidate) => candidate.status === 422)) {
      expect(response.body).toEqual({
        status: false,
        message: "Route locked to avoid duplication",
        code: "ROUTE_LOCKED",
      });
    }
    // 5.00 + 1% + 0.10, once: a single transaction.
    expect((await balancesOf(api, acme))["U100000010"]).toBe(494.85);
    // A different request (another amount) is not the same call and is not held up.
    const other = await api.call("POST", path, { token: acme, body: { ...body, amount: "6.00" } });
    expect(other.status).toBe(200);
  });

  it("runs simultaneous transfers of the same body under different payment_ids or Idempotency-Keys: each is its own payment", async () => {
    const acme = await api.token("acme");
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "2.00" };
    const responses = await Promise.all([
      api.call<Transferred>("POST", path, { token: acme, body: { ...body, payment_id: "order-a" } }),
      api.call<Transferred>("POST", path, { token: acme, body: { ...body, payment_id: "order-b" } }),
      api.call<Transferred>("POST", path, { token: acme, body, headers: { "idempotency-key": "key-a" } }),
      api.call<Transferred>("POST", path, { token: acme, body, headers: { "idempotency-key": "key-b" } }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(4);
  });
});
