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
// `json.dumps(obj)` in Python 3 (its output pasted here, with the digest Python's hashlib gave).
const pythonText =
  '{"wallet_to": "U100000010", "wallet_from": "U100000020", "amount": "10.50", "id": "order/7-\\u00e9", "secret": "acme-form-token"}';

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

  it("hashes Python json.dumps's text: spaced separators, \\u escapes, slash as is", () => {
    expect(checkoutSignature(fields, secret, "python")).toBe(sha256(pythonText));
    expect(checkoutSignature(fields, secret, "python")).toBe(
      "5de65c071d6d414c03bb85135e9f0ffe5153150d0e8e5800ce64ea0e04d48c73",
    );
  });

  it("writes amount or id as a JSON number token when asked", () => {
    const text =
      '{"wallet_to": "U100000010", "wallet_from": "U100000020", "amount": 10.5, "id": "order/7-\\u00e9", "secret": "acme-form-token"}';
    const numeric = { ...fields, amount: "10.5" };
    expect(checkoutSignature(numeric, secret, "python", { amount: "number" })).toBe(sha256(text));
    // Python's hashlib over the same text
    expect(sha256(text)).toBe("71e08c337e67ce85a18982634f2da16680433f092cfe534a97e27a86c5107674");
    expect(checkoutSignature({ ...fields, id: "77" }, secret, "php", { id: "number" })).toBe(
      sha256(
        '{"wallet_to":"U100000010","wallet_from":"U100000020","amount":"10.50","id":77,"secret":"acme-form-token"}',
      ),
    );
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

  it("accepts Python's form", () => {
    expect(verifyCheckoutSignature(fields, secret, sha256(pythonText))).toBe(true);
  });

  describe("a field sent as a JSON number", () => {
    const sent = { ...fields, amount: "10.5", id: "42" };
    const text = (amount: string, id: string, spaced = false) => {
      const [comma, colon] = spaced ? [", ", ": "] : [",", ":"];
      return `{"wallet_to"${colon}"U100000010"${comma}"wallet_from"${colon}"U100000020"${comma}"amount"${colon}${amount}${comma}"id"${colon}${id}${comma}"secret"${colon}"acme-form-token"}`;
    };

    it("verifies over the number the request carried, in every form, and over its text", () => {
      const numbers = { amount: true, id: true };
      expect(verifyCheckoutSignature(sent, secret, sha256(text("10.5", '"42"')), numbers)).toBe(true);
      expect(verifyCheckoutSignature(sent, secret, sha256(text('"10.5"', "42")), numbers)).toBe(true);
      expect(verifyCheckoutSignature(sent, secret, sha256(text("10.5", "42", true)), numbers)).toBe(true);
      expect(verifyCheckoutSignature(sent, secret, sha256(text('"10.5"', '"42"')), numbers)).toBe(true);
    });

    it("verifies a whole amount written as an integer or as PHP and Python write a float", () => {
      const whole = { ...fields, amount: "10" };
      for (const amount of ["10", "10.0"]) {
        const digest = sha256(text(amount, '"order/7-é"'));
        expect(verifyCheckoutSignature(whole, secret, digest, { amount: true })).toBe(true);
      }
      expect(
        verifyCheckoutSignature(whole, secret, sha256(text("10.00", '"order/7-é"')), { amount: true }),
      ).toBe(false);
    });

    it("refuses the number form when the request carried that field as a string", () => {
      expect(verifyCheckoutSignature(sent, secret, sha256(text("10.5", '"42"')), { id: true })).toBe(false);
      expect(verifyCheckoutSignature(sent, secret, sha256(text('"10.5"', "42")), { amount: true })).toBe(
        false,
      );
      expect(verifyCheckoutSignature(sent, secret, sha256(text("10.5", '"42"')))).toBe(false);
    });

    it("refuses another number than the one sent", () => {
      const numbers = { amount: true, id: true };
      for (const amount of ["10.50", "10.51", "1.05e1"]) {
        expect(verifyCheckoutSignature(sent, secret, sha256(text(amount, "42")), numbers)).toBe(false);
      }
    });
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
