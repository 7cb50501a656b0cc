import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type SignedNotification,
  verifyWebhookBody,
  verifyWebhookSignature,
  type WebhookSignedFields,
  webhookSignature,
} from "./webhook-signature.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const secret = "acme-form-token";
const fields: WebhookSignedFields = {
  payment_id: "order-1",
  transaction_id: 42,
  wallet_from: "U100000020",
  wallet_to: "U100000010",
  amount: 10.5,
  status: "SUCCESS",
};
const signedText =
  '{"payment_id":"order-1","transaction_id":42,"wallet_from":"U100000020","wallet_to":"U100000010","amount":10.5,"status":"SUCCESS","secret":"acme-form-token"}';

/** A body as Purse sends it: the signed fields plus the unsigned ones, in the spec's order. */
function rawBody(overrides: Partial<SignedNotification> = {}): string {
  const signed = { ...fields, ...overrides };
  return JSON.stringify({
    payment_id: signed.payment_id,
    signature: overrides.signature ?? webhookSignature(signed, secret),
    transaction_id: signed.transaction_id,
    wallet_from: signed.wallet_from,
    wallet_to: signed.wallet_to,
    currency_to: "USD",
    currency_from: "USD",
    amount: signed.amount,
    commission: 0.16,
    status: signed.status,
    cancel: false,
  });
}

describe("webhookSignature", () => {
  it("hashes the compact JSON of the signed fields in the contract's order, numbers as numbers", () => {
    expect(webhookSignature(fields, secret)).toBe(sha256(signedText));
    // `printf '%s' '<signedText>' | sha256sum`
    expect(webhookSignature(fields, secret)).toBe(
      "a3fb9ca1954648e66660d8b1b2f9903be7575b1d431bb83cdc07331b0fe77bc5",
    );
  });

  it("writes whole amounts and non-ASCII ids the way JSON.stringify does", () => {
    const text =
      '{"payment_id":"zahlung/ü","transaction_id":7,"wallet_from":"A","wallet_to":"B","amount":100,"status":"CANCEL","secret":"t"}';
    const signed = {
      ...fields,
      payment_id: "zahlung/ü",
      transaction_id: 7,
      wallet_from: "A",
      wallet_to: "B",
    };
    expect(webhookSignature({ ...signed, amount: 100, status: "CANCEL" }, "t")).toBe(sha256(text));
  });

  it("changes with every signed field and with the secret", () => {
    const base = webhookSignature(fields, secret);
    expect(webhookSignature({ ...fields, amount: 10.51 }, secret)).not.toBe(base);
    expect(webhookSignature({ ...fields, transaction_id: 43 }, secret)).not.toBe(base);
    expect(webhookSignature({ ...fields, status: "FAIL" }, secret)).not.toBe(base);
    expect(webhookSignature(fields, "bolt-form-token")).not.toBe(base);
  });
});

describe("verifyWebhookSignature", () => {
  it("accepts a parsed notification and spots tampering", () => {
    const body = JSON.parse(rawBody()) as SignedNotification;
    expect(verifyWebhookSignature(body, secret)).toBe(true);
    expect(verifyWebhookSignature({ ...body, amount: 100 }, secret)).toBe(false);
    expect(verifyWebhookSignature({ ...body, status: "FAIL" }, secret)).toBe(false);
    expect(verifyWebhookSignature(body, "not-the-token")).toBe(false);
    expect(verifyWebhookSignature({ ...body, signature: "" }, secret)).toBe(false);
  });
});

describe("verifyWebhookBody", () => {
  it("verifies the raw body as sent, unsigned fields included", () => {
    expect(verifyWebhookBody(rawBody(), secret)).toBe(true);
    expect(verifyWebhookBody(rawBody({ amount: 0.1 + 0.2 }), secret)).toBe(true); // any double round-trips
  });

  it("refuses a body whose signed fields were changed after signing", () => {
    const signature = webhookSignature(fields, secret);
    expect(verifyWebhookBody(rawBody({ signature, amount: 1050 }), secret)).toBe(false);
    expect(verifyWebhookBody(rawBody({ signature, wallet_to: "U999" }), secret)).toBe(false);
    expect(verifyWebhookBody(rawBody(), "not-the-token")).toBe(false);
  });

  it.each<[string, string]>([
    ["not JSON", "status=SUCCESS"],
    ["JSON null", "null"],
    ["an array", "[]"],
    ["a string", '"SUCCESS"'],
    ["no signature", JSON.stringify(fields)],
    ["an amount as text", rawBody().replace('"amount":10.5', '"amount":"10.5"')],
    ["a transaction id as text", rawBody().replace('"transaction_id":42', '"transaction_id":"42"')],
    ["a numeric signature", rawBody().replace(/"signature":"[0-9a-f]+"/, '"signature":1')],
  ])("answers false, without throwing, for %s", (_case, body) => {
    expect(verifyWebhookBody(body, secret)).toBe(false);
  });
});
