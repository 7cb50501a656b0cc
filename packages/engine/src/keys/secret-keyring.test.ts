import { describe, expect, it } from "vitest";
import { deriveSecretKey, encryptSecret } from "../secrets/index.ts";
import { formTokenBinding, webhookSecretBinding } from "./sealed-columns.ts";
import { secretBoxFromKey, secretBoxFromKeys } from "./secret-keyring.ts";

const oldKey = "the old key of at least thirty-two characters";
const newKey = "the new key of at least thirty-two characters";

describe("secret box keyring", () => {
  it("seals under the current key and opens what any key of the ring sealed", () => {
    const before = secretBoxFromKey(oldKey);
    const sealed = before.seal("acme-form-token", formTokenBinding("acme"));
    const after = secretBoxFromKeys(newKey, [oldKey]);
    expect(after.open(sealed, formTokenBinding("acme"))).toBe("acme-form-token");
    expect(after.isCurrent(sealed)).toBe(false);
    expect(after.isCurrent(after.seal("x", formTokenBinding("acme")))).toBe(true);
    expect(() => secretBoxFromKey(newKey).open(sealed, formTokenBinding("acme"))).toThrow();
  });

  it("binds a value to its client and its field", () => {
    const box = secretBoxFromKey(newKey);
    const sealed = box.seal("acme-form-token", formTokenBinding("acme"));
    expect(() => box.open(sealed, formTokenBinding("bolt"))).toThrow();
    expect(() => box.open(sealed, webhookSecretBinding("acme"))).toThrow();
  });

  it("opens values sealed before key ids (v1) with any key of the ring", () => {
    const legacy = encryptSecret("acme-form-token", deriveSecretKey(oldKey));
    expect(secretBoxFromKeys(newKey, [oldKey]).open(legacy, formTokenBinding("acme"))).toBe(
      "acme-form-token",
    );
  });

  it("derives the same purpose key as before key ids (captcha keys survive the upgrade)", () => {
    expect(secretBoxFromKey(oldKey).derive("captcha")).toBe(
      secretBoxFromKeys(oldKey, [newKey]).derive("captcha"),
    );
  });
});
