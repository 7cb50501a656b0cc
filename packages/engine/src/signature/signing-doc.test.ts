import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { verifyCheckoutSignature } from "./checkout-signature.ts";

/**
 * docs/signing.md's worked example: every digest it prints is what that language's encoder gives
 * (the PHP and Python texts are written here by hand, without the engine's encoders or an
 * interpreter) and is accepted by Purse's verification.
 */
const docUrl = new URL("../../../../docs/signing.md", import.meta.url);
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const escapeNonAscii = (text: string, from: number) =>
  [...text]
    .flatMap((char) => (char.length === 2 ? [char[0] ?? "", char[1] ?? ""] : [char]))
    .map((unit) =>
      unit.charCodeAt(0) >= from ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}` : unit,
    )
    .join("");

type Signed = Record<string, string | number>;

const encoders: Record<string, (data: Signed) => string> = {
  js: (data) => JSON.stringify(data),
  go: (data) => JSON.stringify(data),
  php: (data) => escapeNonAscii(JSON.stringify(data).replaceAll("/", "\\/"), 0x80),
  python: (data) =>
    escapeNonAscii(
      `{${Object.entries(data)
        .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
        .join(", ")}}`,
      0x7f,
    ),
};

describe("docs/signing.md", () => {
  it("prints digests that each language's encoder gives and that Purse verifies", async () => {
    const doc = await readFile(docUrl, "utf8");
    const example = /<!-- signing-example: (.+) -->/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const data = JSON.parse(example ?? "{}") as Record<string, string>;
    const fields = {
      wallet_to: data["wallet_to"] ?? "",
      wallet_from: data["wallet_from"] ?? "",
      amount: data["amount"] ?? "",
      id: data["id"] ?? "",
    };
    const digests = [
      ...doc.matchAll(/<!-- signing-digest (\w+) (string|number-amount (\S+)): ([0-9a-f]{64}) -->/g),
    ];
    expect(digests.map((match) => match[1])).toEqual(["php", "php", "python", "js", "go"]);
    for (const [, form = "", kind, amount, digest = ""] of digests) {
      const signed: Signed = { ...data };
      if (amount !== undefined) signed["amount"] = Number(amount);
      expect(sha256(encoders[form]?.(signed) ?? ""), `${form} ${kind}`).toBe(digest);
      const sent = amount !== undefined ? { ...fields, amount: String(Number(amount)) } : fields;
      const numbers = { amount: amount !== undefined };
      expect(verifyCheckoutSignature(sent, data["secret"] ?? "", digest, numbers), `${form} ${kind}`).toBe(
        true,
      );
      // The text under the marker shows the same digest.
      expect(doc).toContain(`-->\nDigest: \`${digest}\``);
    }
  });
});
