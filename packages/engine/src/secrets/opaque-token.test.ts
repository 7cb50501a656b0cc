import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateOpaqueToken, hashOpaqueToken, opaqueTokenOwner } from "./opaque-token.ts";

describe("generateOpaqueToken", () => {
  it("is a prefix and 32 random bytes in base64url", () => {
    const token = generateOpaqueToken();
    expect(token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), "base64url")).toHaveLength(32);
    expect(generateOpaqueToken("chk")).toMatch(/^chk_[A-Za-z0-9_-]{43}$/);
  });

  it("never repeats", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateOpaqueToken()));
    expect(tokens.size).toBe(1000);
  });

  it("refuses a prefix that would make the token ambiguous", () => {
    for (const prefix of ["", "pat_", "PAT", "a b", "x".repeat(17)]) {
      expect(() => generateOpaqueToken(prefix)).toThrow(RangeError);
    }
  });
});

describe("a token's owner", () => {
  it("stands between the prefix and the random part, and is read back", () => {
    const token = generateOpaqueToken("chk", 12);
    expect(token).toMatch(/^chk_12_[A-Za-z0-9_-]{43}$/);
    expect(opaqueTokenOwner(token)).toBe(12);
    expect(opaqueTokenOwner(`test_${generateOpaqueToken("pat", 987654321)}`)).toBe(987654321);
  });

  it("is not read from a token issued without one, whatever its random part holds", () => {
    expect(opaqueTokenOwner(generateOpaqueToken())).toBeUndefined();
    // A random part that starts the way an owner's id would, issued before tokens carried one.
    const old = `pat_12_${"A".repeat(40)}`;
    expect(old.slice(4)).toHaveLength(43);
    expect(opaqueTokenOwner(old)).toBeUndefined();
    expect(opaqueTokenOwner(`test_${old}`)).toBeUndefined();
    for (const other of ["", "pat_", "pat_0_" + "A".repeat(43), "ses_x_" + "A".repeat(43)])
      expect(opaqueTokenOwner(other)).toBeUndefined();
  });

  it("must be a user id", () => {
    for (const owner of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1])
      expect(() => generateOpaqueToken("pat", owner)).toThrow(RangeError);
  });
});

describe("hashOpaqueToken", () => {
  it("is the SHA-256 hex of the token, the same every time, never the token", () => {
    const token = generateOpaqueToken();
    const digest = hashOpaqueToken(token);
    expect(digest).toBe(createHash("sha256").update(token).digest("hex"));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOpaqueToken(token)).toBe(digest);
    expect(digest).not.toContain(token.slice(4));
  });

  it("tells tokens apart, down to one character", () => {
    const token = generateOpaqueToken();
    const changed = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(hashOpaqueToken(changed)).not.toBe(hashOpaqueToken(token));
  });
});
