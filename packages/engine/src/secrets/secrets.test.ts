import { describe, expect, it } from "vitest";
import { generateOpaqueToken, generateWebhookSecret, hashOpaqueToken } from "./opaque-token.ts";
import { decryptSecret, deriveSecretKey, encryptSecret } from "./secret-box.ts";
import { hashSecret, verifySecret } from "./slow-hash.ts";

describe("slow hashes", () => {
  it("verify the right secret only, and never store the secret itself", async () => {
    const hash = await hashSecret("acme-secret");
    expect(hash).not.toContain("acme-secret");
    expect(await verifySecret("acme-secret", hash)).toBe(true);
    expect(await verifySecret("acme-secreT", hash)).toBe(false);
    expect(await verifySecret("", hash)).toBe(false);
  });
  it("salt every hash and reject hashes they cannot read", async () => {
    expect(await hashSecret("same")).not.toBe(await hashSecret("same"));
    expect(await verifySecret("x", "plain-text")).toBe(false);
  });
});

describe("opaque tokens", () => {
  it("are unguessable, prefixed and stored only as a digest", () => {
    const token = generateOpaqueToken();
    expect(token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(generateOpaqueToken()).not.toBe(token);
    expect(hashOpaqueToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(generateOpaqueToken("chk")).toMatch(/^chk_/);
  });
  it("webhook secrets have the Standard Webhooks form", () => {
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  });
});

describe("secret box", () => {
  const key = deriveSecretKey("a key of at least thirty-two characters!");
  it("round-trips and hides the plain text", () => {
    const sealed = encryptSecret("acme-form-token", key);
    expect(sealed).not.toContain("acme-form-token");
    expect(decryptSecret(sealed, key)).toBe("acme-form-token");
    expect(encryptSecret("acme-form-token", key)).not.toBe(sealed);
  });
  it("refuses the wrong key and any alteration", () => {
    const sealed = encryptSecret("secret", key);
    expect(() => decryptSecret(sealed, deriveSecretKey("another key entirely, also long enough"))).toThrow();
    const parts = sealed.split(".");
    const tampered = [parts[0], parts[1], parts[2], `${parts[3]?.slice(0, -2)}AA`].join(".");
    expect(() => decryptSecret(tampered, key)).toThrow();
    expect(() => decryptSecret("garbage", key)).toThrow();
  });
});
