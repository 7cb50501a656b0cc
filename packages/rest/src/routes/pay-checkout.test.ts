import { createCheckout, holdWalletRow } from "@purse/testing";
import { type RestHarness, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const site = { url: "https://shop.example" };
const pay = "/api/processing/pay";

describe("POST /api/processing/pay", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  const as = (token: string, login: string, password: string, action = "pay") => ({
    body: { token, login, password, action },
  });

  it("pays and answers with the outcome and where the payer goes next", async () => {
    const checkout = await createCheckout(api, site, "5.00");
    const response = await api.call("POST", pay, as(checkout.token, "bolt", "bolt-pass"));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: true,
      data: {
        status: "SUCCESS",
        transaction_id: expect.any(Number),
        redirect_url: "https://shop.example/success",
      },
    });
  });

  it.each([
    ["another user signs in", "cafe", "cafe-pass", "Hash is not valid"],
    ["the password is wrong", "bolt", "wrong", "Hash is not valid"],
    ["an unknown login", "nobody", "x", "Hash is not valid"],
  ])("refuses when %s", async (_case, login, password, message) => {
    const checkout = await createCheckout(api, site, "5.00");
    const response = await api.call("POST", pay, as(checkout.token, login, password));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ status: false, message, code: "HASH_NOT_VALID" });
  });

  it("refuses a link that was already paid or cancelled: Hash is not valid", async () => {
    const paid = await createCheckout(api, site, "5.00");
    await api.call("POST", pay, as(paid.token, "bolt", "bolt-pass"));
    expect((await api.call("POST", pay, as(paid.token, "bolt", "bolt-pass"))).body.message).toBe(
      "Hash is not valid",
    );
    const cancelled = await createCheckout(api, site, "5.00");
    expect(
      (await api.call("POST", pay, as(cancelled.token, "bolt", "bolt-pass", "cancel"))).body.data.status,
    ).toBe("CANCEL");
    expect((await api.call("POST", pay, as(cancelled.token, "bolt", "bolt-pass"))).body.message).toBe(
      "Hash is not valid",
    );
  });

  it("shows a cancelled payment to its merchant as the specification's FAIL, between both wallets, and in its history", async () => {
    const checkout = await createCheckout(api, site, "6.00");
    await api.call("POST", pay, as(checkout.token, "bolt", "bolt-pass", "cancel"));
    const acme = await api.token("acme");
    const shown = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      type: "DEPOSIT",
      status: "FAIL",
      processing_pay: { wallet_from: "U100000020", wallet_to: "U100000010", status: "CANCEL", cancel: true },
    });
    const today = new Date().toISOString().slice(0, 10);
    const history = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100&status=4`,
      { token: acme },
    );
    expect(history.status).toBe(200);
    expect(history.body.data.items).toContainEqual(
      expect.objectContaining({
        id: shown.body.data.id,
        status: 4,
        wallet_from: "U100000020",
        wallet_to: "U100000010",
        amount_to: 0,
        total_usd: 0,
      }),
    );
  });

  it("refuses when the payer no longer has the funds: Deposit your wallet, you not have funds", async () => {
    const checkout = await createCheckout(api, site, "200.00");
    const bolt = await api.token("bolt");
    await api.call("POST", "/api/transaction/transfer", {
      token: bolt,
      body: { wallet_from: "U100000020", wallet_to: "U100000030", amount: "100.00" },
    });
    const response = await api.call("POST", pay, as(checkout.token, "bolt", "bolt-pass"));
    expect(response.status).toBe(422);
    expect(response.body.message).toBe("Deposit your wallet, you not have funds");
  });

  it("lets one of several simultaneous calls through: the others are route-locked", async () => {
    const checkout = await createCheckout(api, site, "1.00");
    // Another session holds the payer's wallet row, so the call that takes the route lock waits in
    // its transaction while the others arrive: the overlap is certain, not a matter of timing.
    const holder = await holdWalletRow(api.engine.database.url, "U100000020");
    let answered = 0;
    const calls = Array.from({ length: 6 }, () =>
      api.call("POST", pay, as(checkout.token, "bolt", "bolt-pass")).finally(() => {
        answered += 1;
      }),
    );
    for (let waited = 0; answered < 5 && waited < 20_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await holder.rollback();
    const responses = await Promise.all(calls);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    const messages = responses.filter((r) => r.status !== 200).map((r) => r.body.message);
    expect(messages).toContain("Route locked to avoid duplication");
    for (const message of messages)
      expect(["Route locked to avoid duplication", "Hash is not valid"]).toContain(message);
  });

  it("answers an unknown link with 404 and blank fields with the blank message", async () => {
    expect((await api.call("POST", pay, as("chk_nope", "bolt", "bolt-pass"))).status).toBe(404);
    const blank = await api.call("POST", pay, {
      body: { token: "chk_x", login: "", password: "p", action: "pay" },
    });
    expect(blank.body).toEqual({
      status: false,
      message: "This value should not be blank.",
      errors: { login: ["This value should not be blank."] },
      code: "BLANK",
    });
  });
});

describe("a checkout whose id the merchant already used for a transfer", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  it("is still paid; the transfer keeps the external id", async () => {
    const checkout = await createCheckout(api, site, "3.00");
    const acme = await api.token("acme");
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token: acme,
      body: {
        wallet_from: "U100000010",
        wallet_to: "U100000020",
        amount: "1.00",
        payment_id: checkout.paymentId,
      },
    });
    expect(transfer.status).toBe(200);
    const paid = await api.call("POST", pay, {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const shown = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    expect(shown.body.data.id).toBe(transfer.body.data.id);
  });
});
