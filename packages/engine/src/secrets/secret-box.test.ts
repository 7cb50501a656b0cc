import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  boxKey,
  decryptSecret,
  deriveSecretKey,
  encryptSecret,
  openSecret,
  sealedKeyId,
  sealSecret,
  secretKeyId,
} from "./secret-box.ts";

const key = deriveSecretKey("a key of at least thirty-two characters!");
const otherKey = deriveSecretKey("another key entirely, also long enough");

/** Flips one bit of one base64url part of a sealed text. */
function flipBit(sealed: string, partIndex: number): string {
  const parts = sealed.split(":");
  const bytes = Buffer.from(parts[partIndex] ?? "", "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[partIndex] = bytes.toString("base64url");
  return parts.join(":");
}

describe("deriveSecretKey", () => {
  it("makes a 256-bit key, the same for the same text, another for another text", () => {
    expect(key).toHaveLength(32);
    expect(deriveSecretKey("a key of at least thirty-two characters!").equals(key)).toBe(true);
    expect(otherKey.equals(key)).toBe(false);
  });

  it("is SHA-256 over a purpose label, so keys sealed so far keep opening", () => {
    const expected = createHash("sha256").update("purse-secret-box:k").digest();
    expect(deriveSecretKey("k").equals(expected)).toBe(true);
  });

  it("refuses an empty key text", () => {
    expect(() => deriveSecretKey("")).toThrow(RangeError);
  });
});

describe("encryptSecret and decryptSecret", () => {
  it.each([
    "acme-form-token",
    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    "",
    "ünïcödé 🔐",
    "x".repeat(10_000),
  ])("round-trip %#", (plain) => {
    expect(decryptSecret(encryptSecret(plain, key), key)).toBe(plain);
  });

  it("write v1:<iv>:<tag>:<ciphertext> in base64url, hiding the plain text", () => {
    const sealed = encryptSecret("acme-form-token", key);
    const [version, iv = "", tag = "", ciphertext = ""] = sealed.split(":");
    expect(version).toBe("v1");
    expect(Buffer.from(iv, "base64url")).toHaveLength(12);
    expect(Buffer.from(tag, "base64url")).toHaveLength(16);
    expect(Buffer.from(ciphertext, "base64url")).toHaveLength("acme-form-token".length);
    expect(sealed).toMatch(/^v1(:[A-Za-z0-9_-]+){3}$/);
    expect(sealed).not.toContain("acme-form-token");
  });

  it("use a fresh IV every time: one secret never seals the same twice", () => {
    expect(encryptSecret("same", key)).not.toBe(encryptSecret("same", key));
  });

  it("refuse the wrong key", () => {
    expect(() => decryptSecret(encryptSecret("secret", key), otherKey)).toThrow(/cannot be opened/);
  });

  it.each([
    [1, "the IV"],
    [2, "the tag"],
    [3, "the ciphertext"],
  ])("refuse a sealed text with one bit of %s flipped", (partIndex) => {
    const sealed = encryptSecret("secret", key);
    expect(() => decryptSecret(flipBit(sealed, partIndex as number), key)).toThrow();
  });

  it.each<[string, (sealed: string) => string]>([
    ["garbage", () => "garbage"],
    ["empty", () => ""],
    ["another version", (sealed) => sealed.replace(/^v1/, "v2")],
    ["a part missing", (sealed) => sealed.split(":").slice(0, 3).join(":")],
    ["a part too many", (sealed) => `${sealed}:AAAA`],
    ["a truncated tag", (sealed) => sealed.replace(/^(v1:[^:]+:)[^:]{4}/, "$1")],
    ["characters outside base64url", (sealed) => `${sealed}!`],
    [
      "ciphertext swapped in from another secret",
      (sealed) => {
        const other = encryptSecret("other!", key).split(":")[3];
        return [...sealed.split(":").slice(0, 3), other].join(":");
      },
    ],
  ])("refuse %s", (_case, tamper) => {
    expect(() => decryptSecret(tamper(encryptSecret("secret", key)), key)).toThrow();
  });

  it("never put the secret or the sealed text in the error", () => {
    const sealed = encryptSecret("top-secret-token", key);
    try {
      decryptSecret(sealed, otherKey);
    } catch (error) {
      expect(String(error)).not.toContain("top-secret-token");
      expect(String(error)).not.toContain(sealed);
    }
    expect.assertions(2);
  });

  it("still open secrets sealed in the earlier dotted form", () => {
    const dotted = encryptSecret("acme-form-token", key).replaceAll(":", ".");
    expect(decryptSecret(dotted, key)).toBe("acme-form-token");
  });

  it("refuse a key that is not 256 bits", () => {
    expect(() => encryptSecret("secret", randomBytes(16))).toThrow(RangeError);
    expect(() => decryptSecret(encryptSecret("secret", key), randomBytes(31))).toThrow(RangeError);
  });
});

describe("sealSecret and openSecret (v2: key id and bound context)", () => {
  const current = boxKey("the current key, thirty-two characters or more");
  const previous = boxKey("the previous key, thirty-two characters or more");
  const context = "clients.form_token:acme";

  it("write v2:<key id>:<iv>:<tag>:<ciphertext>, naming the key that sealed it", () => {
    const sealed = sealSecret("acme-form-token", current, context);
    expect(sealed).toMatch(/^v2:[0-9a-f]{8}(:[A-Za-z0-9_-]+){3}$/);
    expect(sealedKeyId(sealed)).toBe(current.id);
    expect(current.id).toBe(secretKeyId("the current key, thirty-two characters or more"));
    expect(sealed).not.toContain("acme-form-token");
  });

  it("open with whichever key of the ring sealed it", () => {
    const sealed = sealSecret("acme-form-token", previous, context);
    expect(openSecret(sealed, [current, previous], context)).toBe("acme-form-token");
    expect(() => openSecret(sealed, [current], context)).toThrow(/not in the ring/);
  });

  it("refuse a value moved to another row or field (the context is authenticated)", () => {
    const sealed = sealSecret("acme-form-token", current, context);
    expect(() => openSecret(sealed, [current], "clients.form_token:bolt")).toThrow(/cannot be opened/);
    expect(() => openSecret(sealed, [current], "clients.webhook_secret:acme")).toThrow(/cannot be opened/);
  });

  it("refuse a key id rewritten to another key's (the id is authenticated too)", () => {
    const sealed = sealSecret("acme-form-token", current, context);
    const relabelled = sealed.replace(current.id, previous.id);
    expect(() => openSecret(relabelled, [current, previous], context)).toThrow(/cannot be opened/);
  });

  it("still open v1 values (no key id, no context) with any key of the ring", () => {
    const legacy = encryptSecret("acme-form-token", previous.key);
    expect(sealedKeyId(legacy)).toBeNull();
    expect(openSecret(legacy, [current, previous], context)).toBe("acme-form-token");
    expect(openSecret(legacy.replaceAll(":", "."), [current, previous], "anything")).toBe("acme-form-token");
    expect(() => openSecret(legacy, [current], context)).toThrow(/no key of the ring/);
  });

  it("refuse garbage without naming it", () => {
    for (const bad of ["", "v2:zz:AAAA:AAAA:AAAA", "v2:0123abcd:AAAA", "v3:x"]) {
      expect(() => openSecret(bad, [current], context)).toThrow();
    }
  });
});
