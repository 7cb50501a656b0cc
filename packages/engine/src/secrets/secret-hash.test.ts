import { describe, expect, it } from "vitest";
import { hashSecret, verifySecret } from "./secret-hash.ts";

describe("secret hashes", () => {
  it("verify a client secret and a voucher code, and nothing else", async () => {
    const [clientSecret, voucherCode] = await Promise.all([
      hashSecret("acme-secret"),
      hashSecret("1111-2222-3333"),
    ]);
    expect(clientSecret).not.toContain("acme-secret");
    expect(voucherCode).not.toContain("1111-2222-3333");
    expect(await verifySecret("acme-secret", clientSecret)).toBe(true);
    expect(await verifySecret("1111-2222-3333", voucherCode)).toBe(true);
    expect(await verifySecret("1111-2222-3334", voucherCode)).toBe(false);
    expect(await verifySecret("acme-secret", voucherCode)).toBe(false);
  });

  it("refuse a stored value that is not a hash", async () => {
    expect(await verifySecret("acme-secret", "acme-secret")).toBe(false);
  });
});
