import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startEmbeddedServer, type TestServer } from "../support/test-server.ts";

/**
 * Refunds on the embedded default (PGlite, in-process locks: `npm start`), where the refund's SQL
 * runs inside MikroORM's transaction on PGlite's one connection: the same answers, and a burst of
 * refunds still stops at the amount paid.
 */
describe("refunds on the embedded default", () => {
  let api: TestServer;
  let acme: string;
  beforeAll(async () => {
    api = await startEmbeddedServer({ env: { PURSE_CAPTCHA: "off", PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
  }, 120_000);
  afterAll(() => api.close());

  it("refunds in parts, refuses past the amount, also when the refunds arrive at once", async () => {
    const checkout = await createCheckout(api, { url: "https://shop.example" }, "6.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const refund = (amount: string, key: string) =>
      api.call("POST", "/api/processing/refund", {
        token: acme,
        headers: { "idempotency-key": key },
        body: { external_id: checkout.paymentId, amount },
      });
    const first = await refund("2.00", "embedded-1");
    expect(first.body).toMatchObject({
      status: true,
      message: "Refund completed successfully",
      data: { amount: "2.00", refundable: "4.00", commission: "0.00", status: "SUCCESS" },
    });
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, index) => refund("1.00", `embedded-burst-${index}`)),
    );
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(
      new Set(burst.filter((answer) => answer.status !== 200).map((answer) => answer.body.message)),
    ).toEqual(new Set(["Refund amount exceeds the refundable amount"]));
    const shown = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    expect(shown.body.data.refunded).toBe("6.00");
    // The merchant's list of checkouts (its rows, then its wallets' numbers by id) says the same.
    const listed = await api.call("POST", "/graphql", {
      token: acme,
      body: { query: "{ checkouts(limit: 1) { paymentId walletFrom walletTo refunded } }" },
    });
    expect(listed.body.data.checkouts).toEqual([
      { paymentId: checkout.paymentId, walletFrom: "U100000020", walletTo: "U100000010", refunded: "6.00" },
    ]);
  });
});
