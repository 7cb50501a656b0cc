import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password-hash.ts";

describe("password hashes", () => {
  it("verify the right password only and never contain it", async () => {
    const stored = await hashPassword("acme-pass");
    expect(stored).not.toContain("acme-pass");
    expect(stored).not.toBe("acme-pass");
    expect(await verifyPassword("acme-pass", stored)).toBe(true);
    expect(await verifyPassword("bolt-pass", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("refuse a password stored in clear text instead of comparing it", async () => {
    expect(await verifyPassword("acme-pass", "acme-pass")).toBe(false);
  });
});
