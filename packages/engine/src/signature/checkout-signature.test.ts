import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type CheckoutSignedFields,
  checkoutSignature,
  verifyCheckoutSignature,
} from "./checkout-signature.ts";

// Expected digests come from an independent path: node:crypto over JSON text written out by hand,
// and for the first two also `printf '%s' '<text>' | sha256sum`.
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const secret = "acme-form-token";
const fields: CheckoutSignedFields = {
  wallet_to: "U100000010",
  wallet_from: "U100000020",
  amount: "10.50",
  id: "order/7-é",
};
const jsText =
  '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"order/7-é","secret":"acme-form-token"}';
const phpText =
  '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"order\\/7-\\u00e9","secret":"acme-form-token"}';

describe("checkoutSignature", () => {
  it("hashes the compact JSON.stringify text, keys in the contract's order", () => {
    expect(checkoutSignature(fields, secret)).toBe(sha256(jsText));
    expect(checkoutSignature(fields, secret, "js")).toBe(
      "02bed46690afe28a95af54fe30908002cb9eec4c607125ec01eb299923551f67",
    );
  });

  it("hashes PHP json_encode's text: escaped slash, \\u escape in lowercase hex", () => {
    expect(checkoutSignature(fields, secret, "php")).toBe(sha256(phpText));
    expect(checkoutSignature(fields, secret, "php")).toBe(
      "44dd61ba2f6211ac5671f50336508ae54bc66047acae45626173159042697144",
    );
  });

  it("writes characters beyond the BMP as a surrogate pair in the PHP form", () => {
    const emoji = { ...fields, id: "😀" };
    const text =
      '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":"\\ud83d\\ude00","secret":"acme-form-token"}';
    expect(checkoutSignature(emoji, secret, "php")).toBe(sha256(text));
  });

  it("escapes the secret too, and keeps the key order whatever order the fields object has", () => {
    const shuffled = { id: "1", amount: "5", wallet_from: "A", wallet_to: "B" };
    const text = '{"wallet_to":"B","wallet_from":"A","amount":"5","id":"1","secret":"s\\/é\\"q"}';
    expect(checkoutSignature(shuffled, 's/é"q', "php")).toBe(sha256(text.replace("é", "\\u00e9")));
    expect(checkoutSignature(shuffled, 's/é"q', "js")).toBe(sha256(text.replace("\\/", "/")));
  });

  it("is one text in both forms when there is nothing PHP would escape", () => {
    const plain = { ...fields, id: "order-7" };
    expect(checkoutSignature(plain, secret, "php")).toBe(checkoutSignature(plain, secret, "js"));
  });
});

describe("verifyCheckoutSignature", () => {
  it("accepts either form, in either hex case", () => {
    expect(verifyCheckoutSignature(fields, secret, sha256(jsText))).toBe(true);
    expect(verifyCheckoutSignature(fields, secret, sha256(phpText))).toBe(true);
    expect(verifyCheckoutSignature(fields, secret, sha256(phpText).toUpperCase())).toBe(true);
  });

  it.each<[string, CheckoutSignedFields]>([
    ["another amount", { ...fields, amount: "10.5" }],
    ["another id", { ...fields, id: "order/8-é" }],
    ["another wallet_to", { ...fields, wallet_to: "U100000011" }],
    ["the wallets swapped", { ...fields, wallet_to: fields.wallet_from, wallet_from: fields.wallet_to }],
  ])("refuses a signature made over %s", (_case, signed) => {
    expect(verifyCheckoutSignature(fields, secret, checkoutSignature(signed, secret))).toBe(false);
  });

  it("refuses a signature made with another form token", () => {
    expect(verifyCheckoutSignature(fields, secret, checkoutSignature(fields, "bolt-form-token"))).toBe(false);
  });

  it("refuses other JSON texts of the same data: other key order, whitespace, numbers", () => {
    const reordered =
      '{"wallet_from":"U100000020","wallet_to":"U100000010","amount":"10.50","id":"order/7-é","secret":"acme-form-token"}';
    const spaced =
      '{"wallet_to": "U100000010", "wallet_from": "U100000020", "amount": "10.50", "id": "order/7-é", "secret": "acme-form-token"}';
    const numeric =
      '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":10.50,"id":"order/7-é","secret":"acme-form-token"}';
    for (const text of [reordered, spaced, numeric]) {
      expect(verifyCheckoutSignature(fields, secret, sha256(text))).toBe(false);
    }
  });

  it.each<[string, string | null | undefined]>([
    ["missing", undefined],
    ["null", null],
    ["empty", ""],
    ["truncated", sha256(jsText).slice(0, 40)],
    ["non-hex", "zz"],
    ["the secret itself", secret],
    ["non-ASCII", "é".repeat(64)],
  ])("answers false, without throwing, for a %s signature", (_case, signature) => {
    expect(verifyCheckoutSignature(fields, secret, signature)).toBe(false);
  });
});
