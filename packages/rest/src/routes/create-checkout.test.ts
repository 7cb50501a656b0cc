import { checkoutSignature } from "@purse/engine";
import {
  balancesOf,
  type Envelope,
  errorOf,
  errorWorld,
  type RestHarness,
  shapeOf,
  startRestHarness,
} from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../http/error-body.ts";

const path = "/api/processing/checkout";
const formTokens: Record<string, string> = {
  U100000010: "acme-form-token",
  G100000013: "acme-form-token",
  C100000014: "acme-form-token",
  U100000040: "dora-form-token",
};

let sequence = 0;

/** A checkout body signed with the form token of wallet_to's owner (or `secret`). */
function signed(
  fields: { wallet_to: string; wallet_from: string; amount: string; id?: string },
  secret?: string,
) {
  sequence += 1;
  const id = fields.id ?? `order-${sequence}`;
  const signedFields = { ...fields, id };
  return {
    ...signedFields,
    signature: checkoutSignature(signedFields, secret ?? formTokens[fields.wallet_to] ?? "acme-form-token"),
    success_url: "https://shop.example/success",
    cancel_url: "https://shop.example/cancel",
    status_url: "https://shop.example/webhook",
    user_info: `payer-${id}`,
  };
}

describe("POST /api/processing/checkout", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: errorWorld() });
  });
  afterAll(() => api.close());

  it("creates a payment link valid until expired_at, without a bearer token", async () => {
    const response = await api.call<Envelope<{ url: string; expired_at: string }>>("POST", path, {
      body: signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "25.00" }),
    });
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({ status: "boolean", data: "object" });
    expect(shapeOf(response.body.data)).toEqual({ url: "string", expired_at: "string" });
    expect(response.body.data.url).toMatch(/^http:\/\/localhost\/pay\/\S+$/);
    expect(response.body.data.expired_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const expires = Date.parse(`${response.body.data.expired_at.replace(" ", "T")}Z`);
    expect(expires - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  });

  it("accepts the amount and id as bare numbers, signed as their text", async () => {
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "12.5", id: "90210" };
    const body = { ...signed(fields), amount: 12.5, id: 90210 };
    const response = await api.call("POST", path, { body });
    expect(response.status).toBe(200);
  });

  it("accepts the signature over Python json.dumps's text and over PHP json_encode's", async () => {
    for (const form of ["python", "php"] as const) {
      const fields = {
        wallet_to: "U100000010",
        wallet_from: "U100000020",
        amount: "7.25",
        id: `py/é-${form}`,
      };
      const body = { ...signed(fields), signature: checkoutSignature(fields, "acme-form-token", form) };
      const response = await api.call("POST", path, { body });
      expect(response.status).toBe(200);
    }
  });

  it("accepts a signature over the amount and id as the JSON numbers the request carried", async () => {
    // A PHP module that sends {"amount": 10.5, "id": 4711} and signs json_encode of the same values.
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "10.5", id: "4711" };
    const signature = checkoutSignature(fields, "acme-form-token", "php", { amount: "number", id: "number" });
    const response = await api.call("POST", path, {
      body: { ...signed(fields), amount: 10.5, id: 4711, signature },
    });
    expect(response.status).toBe(200);
  });

  it("reads a JSON number amount as written: signed as that number or its text, refused when too precise", async () => {
    const raw = (amount: string, id: string, signature: string) =>
      api.call("POST", path, {
        body:
          `{"wallet_to":"U100000010","wallet_from":"U100000020","amount":${amount},"id":"${id}",` +
          `"user_info":"payer-${id}","signature":"${signature}"}`,
      });
    const fields = (amount: string, id: string) => ({
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount,
      id,
    });
    // PHP's json_encode(10.0) writes 10.0 in the body and in the signed text alike.
    const php = checkoutSignature(fields("10.0", "raw-1"), "acme-form-token", "php", { amount: "number" });
    expect((await raw("10.0", "raw-1", php)).status).toBe(200);
    // A shell client writes 10.50 as a number and signs the text it wrote.
    const text = checkoutSignature(fields("10.50", "raw-2"), "acme-form-token");
    expect((await raw("10.50", "raw-2", text)).status).toBe(200);
    // As a double this is 11; the signature over 11 must not buy a checkout of 11.
    const rounded = checkoutSignature(fields("11", "raw-3"), "acme-form-token", "js", { amount: "number" });
    const refused = await raw("10.999999999999999999", "raw-3", rounded);
    expect(refused.status).toBe(422);
  });

  it("verifies the signature over the values as sent, spaces included, and nothing else", async () => {
    const sent = { wallet_to: "U100000010", wallet_from: "U100000020", amount: " 10.50", id: " padded-1 " };
    expect((await api.call("POST", path, { body: signed(sent) })).status).toBe(200);
    // Signed over the values as Purse trims them for use, not as sent: refused.
    const padded = signed({ ...sent, id: " padded-2 " });
    const trimmed = { ...sent, amount: "10.50", id: "padded-2" };
    const refused = await api.call("POST", path, {
      body: { ...padded, signature: checkoutSignature(trimmed, "acme-form-token") },
    });
    expect(refused.body).toEqual(errorOf("SIGNATURE_NOT_IDENTICAL", "Signature not identical", "signature"));
  });

  it("refuses a signature over a number when the request carried that field as a string", async () => {
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "10.5", id: "4712" };
    const signature = checkoutSignature(fields, "acme-form-token", "js", { amount: "number" });
    const response = await api.call("POST", path, { body: { ...signed(fields), signature } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorOf("SIGNATURE_NOT_IDENTICAL", "Signature not identical", "signature"));
  });

  it("is paid on the hosted page's call and then shows as the receiver's DEPOSIT with its signature", async () => {
    const body = signed({
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount: "20.00",
      id: "paid-1",
    });
    const created = await api.call<Envelope<{ url: string }>>("POST", path, { body });
    const link = created.body.data.url;
    const acme = await api.token("acme");
    const before = (await balancesOf(api, acme))["U100000010"] ?? 0;
    const paid = await api.call<Envelope<{ status: string; transaction_id: number; redirect_url: string }>>(
      "POST",
      "/api/processing/pay",
      {
        body: {
          token: link.slice(link.lastIndexOf("/") + 1),
          login: "bolt",
          password: "bolt-pass",
          action: "pay",
        },
      },
    );
    expect(paid.status).toBe(200);
    expect(paid.body.data).toEqual({
      status: "SUCCESS",
      transaction_id: expect.any(Number),
      redirect_url: "https://shop.example/success",
    });
    // The receiver gets 20.00 less 1.5% commission.
    expect((await balancesOf(api, acme))["U100000010"]).toBeCloseTo(before + 19.7, 2);
    const shown = await api.call<Envelope<Record<string, unknown>>>(
      "GET",
      `/api/transaction/show?id=${paid.body.data.transaction_id}`,
      { token: acme },
    );
    expect(shown.body.data).toEqual(
      expect.objectContaining({ type: "DEPOSIT", status: "SUCCESS", amount: "20.00", commission: "0.30" }),
    );
    expect(shown.body.data["processing_pay"]).toEqual(
      expect.objectContaining({ payment_id: "paid-1", signature: body.signature, amount: 20, cancel: false }),
    );
  });

  const blank = "This value should not be blank.";
  it.each<[string, Record<string, unknown>, ErrorBody["code"], string, string | undefined]>([
    [
      "amount empty",
      { ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "" }) },
      "BLANK",
      blank,
      "amount",
    ],
    [
      "wallet_to missing",
      {
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }),
        wallet_to: undefined,
      },
      "BLANK",
      blank,
      "wallet_to",
    ],
    [
      "wallet_from null",
      { ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }), wallet_from: null },
      "BLANK",
      blank,
      "wallet_from",
    ],
    [
      "user_info missing",
      {
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }),
        user_info: undefined,
      },
      "BLANK",
      blank,
      "user_info",
    ],
    [
      "amount not numeric",
      signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "abc" }),
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "amount",
    ],
    [
      "amount of the wrong type",
      { ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }), amount: [5] },
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "amount",
    ],
    [
      "success_url of the wrong type",
      { ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }), success_url: 7 },
      "INVALID_VALUE",
      "This value is not valid.",
      "success_url",
    ],
    [
      "wallet_to unknown",
      signed({ wallet_to: "U999", wallet_from: "U100000020", amount: "5" }),
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_to inactive",
      signed({ wallet_to: "U100000012", wallet_from: "U100000020", amount: "5" }),
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "wallet_from unknown",
      signed({ wallet_to: "U100000010", wallet_from: "U999", amount: "5" }),
      "WALLET_FROM_NOT_EXISTS",
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      "wallet_from deleted",
      signed({ wallet_to: "U100000010", wallet_from: "U100000022", amount: "5" }),
      "WALLET_FROM_NOT_EXISTS",
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      "signature missing",
      {
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }),
        signature: undefined,
      },
      "SIGNATURE_NOT_IDENTICAL",
      "Signature not identical",
      "signature",
    ],
    [
      "signature of another secret",
      signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }, "bolt-form-token"),
      "SIGNATURE_NOT_IDENTICAL",
      "Signature not identical",
      "signature",
    ],
    [
      "signature over other fields",
      { ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5" }), amount: "6" },
      "SIGNATURE_NOT_IDENTICAL",
      "Signature not identical",
      "signature",
    ],
    [
      "below the minimum",
      signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "0.50" }),
      "MIN_AMOUNT",
      "Minimum amount exceeded 1.00 for USD",
      "amount",
    ],
    [
      "above the maximum",
      signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "10000.01" }),
      "MAX_AMOUNT",
      "Maximum amount exceeded 10000.00 for USD",
      "amount",
    ],
    [
      "more than the payer has",
      signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "300.00" }),
      "CHECKOUT_AMOUNT_NOT_CORRECT",
      "Amount is not correct",
      undefined,
    ],
    [
      "currencies differ",
      signed({ wallet_to: "U100000010", wallet_from: "E100000021", amount: "5" }),
      "CURRENCIES_NOT_EQUAL",
      "Currencies are not equals",
      undefined,
    ],
    [
      "currency disabled",
      signed({ wallet_to: "G100000013", wallet_from: "G100000023", amount: "5" }),
      "CURRENCY_DISABLED",
      "Currency is disabled",
      undefined,
    ],
    [
      "direction closed",
      signed({ wallet_to: "C100000014", wallet_from: "C100000024", amount: "5" }),
      "DIRECTION_INACTIVE",
      "Direction not active",
      undefined,
    ],
  ])("refuses %s with 422 and the spec's message", async (_name, body, code, message, field) => {
    const response = await api.call("POST", path, { body });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorOf(code, message, field));
  });

  it("refuses a blocked receiver or payer with User is blocked", async () => {
    const receiver = await api.call("POST", path, {
      body: signed({ wallet_to: "U100000040", wallet_from: "U100000020", amount: "5" }),
    });
    expect(receiver.status).toBe(422);
    expect(receiver.body).toEqual(
      errorOf("RECIPIENT_BLOCKED", "User is blocked", undefined, "server_error.recipient_account_is_blocked"),
    );
    const payer = await api.call("POST", path, {
      body: signed({ wallet_to: "U100000010", wallet_from: "U100000040", amount: "5" }),
    });
    expect(payer.status).toBe(422);
    expect(payer.body).toEqual(
      errorOf("SENDER_BLOCKED", "User is blocked", undefined, "server_error.sender_account_is_blocked"),
    );
  });

  it("refuses a reused id (Order id is not unique) and a reused user_info", async () => {
    const first = signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5", id: "unique-1" });
    expect((await api.call("POST", path, { body: first })).status).toBe(200);
    const sameId = signed({
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount: "6",
      id: "unique-1",
    });
    const again = await api.call("POST", path, { body: { ...sameId, user_info: "someone-else" } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(errorOf("ORDER_ID_NOT_UNIQUE", "Order id is not unique", "id"));
    const sameUser = signed({
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount: "5",
      id: "unique-2",
    });
    const reused = await api.call("POST", path, { body: { ...sameUser, user_info: first.user_info } });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual(errorOf("USER_INFO_NOT_UNIQUE", "User info is not unique", "user_info"));
  });
});
