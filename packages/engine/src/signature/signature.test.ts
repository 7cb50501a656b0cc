import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkoutSignature, verifyCheckoutSignature } from "./checkout-signature.ts";
import { verifyWebhookSignature, webhookSignature } from "./webhook-signature.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "10.50", id: "order/7-é" };

describe("checkout signature", () => {
  it("hashes the compact JSON text, keys in the spec's order", () => {
    const text =
      '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"order/7-é","secret":"tok"}';
    expect(checkoutSignature(fields, "tok")).toBe(sha256(text));
  });
  it("also knows PHP json_encode's form: escaped slashes and \\u escapes", () => {
    const text =
      '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"order\\/7-\\u00e9","secret":"tok"}';
    expect(checkoutSignature(fields, "tok", "php")).toBe(sha256(text));
    expect(verifyCheckoutSignature(fields, "tok", sha256(text))).toBe(true);
  });
  it("escapes characters beyond the BMP as surrogate pairs, as PHP does", () => {
    const emoji = { ...fields, id: "😀" };
    const text =
      '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"\\ud83d\\ude00","secret":"tok"}';
    expect(checkoutSignature(emoji, "tok", "php")).toBe(sha256(text));
  });
  it("refuses a wrong secret, a changed field, a truncated or non-hex signature, and accepts upper case", () => {
    const good = checkoutSignature(fields, "tok");
    expect(verifyCheckoutSignature(fields, "tok", good.toUpperCase())).toBe(true);
    expect(verifyCheckoutSignature(fields, "other", good)).toBe(false);
    expect(verifyCheckoutSignature({ ...fields, amount: "10.51" }, "tok", good)).toBe(false);
    expect(verifyCheckoutSignature(fields, "tok", good.slice(0, 40))).toBe(false);
    expect(verifyCheckoutSignature(fields, "tok", "zz")).toBe(false);
    expect(verifyCheckoutSignature(fields, "tok", "")).toBe(false);
  });
});

describe("webhook signature", () => {
  const body = {
    payment_id: "order-1",
    transaction_id: 42,
    wallet_from: "U100000020",
    wallet_to: "U100000010",
    amount: 10.5,
    status: "SUCCESS",
  };
  it("hashes the notification's fields with numbers left as numbers", () => {
    const text =
      '{"payment_id":"order-1","transaction_id":42,"wallet_from":"U100000020","wallet_to":"U100000010","amount":10.5,"status":"SUCCESS","secret":"tok"}';
    expect(webhookSignature(body, "tok")).toBe(sha256(text));
  });
  it("lets a merchant verify a notification and spot tampering", () => {
    const signed = { ...body, signature: webhookSignature(body, "tok") };
    expect(verifyWebhookSignature(signed, "tok")).toBe(true);
    expect(verifyWebhookSignature({ ...signed, amount: 100 }, "tok")).toBe(false);
    expect(verifyWebhookSignature(signed, "not-the-token")).toBe(false);
  });
});
