import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { checkAmountSyntax, formatMinor, maxAmountLength, parseAmount, percentOfHalfUp } from "./amount.ts";
import { parseDecimal } from "./decimal.ts";

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return PurseError.is(error) ? error.code : "not a PurseError";
  }
  return undefined;
}

describe("parseAmount", () => {
  it("turns decimal text into minor units of the currency", () => {
    expect(parseAmount("10", 2)).toBe(1000n);
    expect(parseAmount("0.01", 2)).toBe(1n);
    expect(parseAmount("0.12345678", 8)).toBe(12345678n);
  });
  it("names each kind of bad amount with the spec's error", () => {
    expect(codeOf(() => parseAmount("", 2))).toBe("BLANK");
    expect(codeOf(() => parseAmount(undefined, 2))).toBe("BLANK");
    expect(codeOf(() => parseAmount("ten", 2))).toBe("NOT_NUMERIC");
    expect(codeOf(() => parseAmount("0", 2))).toBe("NOT_POSITIVE");
    expect(codeOf(() => parseAmount("-5", 2))).toBe("NOT_POSITIVE");
    expect(codeOf(() => parseAmount("1.001", 2))).toBe("TOO_PRECISE");
  });
  it("refuses an amount longer than a few dozen characters before reading its digits", () => {
    const padded = `1.${"0".repeat(100_000)}`;
    expect(codeOf(() => parseAmount(padded, 2))).toBe("NOT_NUMERIC");
    expect(codeOf(() => checkAmountSyntax(padded))).toBe("NOT_NUMERIC");
    expect(codeOf(() => parseAmount(`${"9".repeat(100_000)}`, 2))).toBe("NOT_NUMERIC");
    const longest = `1.${"0".repeat(maxAmountLength - 2)}`;
    expect(parseAmount(longest, 2)).toBe(100n);
    expect(codeOf(() => parseAmount(`${longest}0`, 2))).toBe("NOT_NUMERIC");
  });
  it("fills the precession into the overflow message", () => {
    try {
      parseAmount("1.001", 2);
    } catch (error) {
      expect((error as Error).message).toBe("This value should have at most 2 decimal places.");
    }
    expect.assertions(1);
  });
});

describe("percentOfHalfUp", () => {
  const percent = (text: string) => {
    const value = parseDecimal(text);
    if (!value) throw new Error(text);
    return value;
  };
  it("rounds half-up to a minor unit", () => {
    expect(percentOfHalfUp(1000n, percent("1.5"))).toBe(15n); // 1.5% of 10.00 = 0.15
    expect(percentOfHalfUp(150n, percent("1"))).toBe(2n); // 0.015 → 0.02
    expect(percentOfHalfUp(149n, percent("1"))).toBe(1n); // 0.0149 → 0.01
    expect(percentOfHalfUp(1n, percent("0"))).toBe(0n);
  });
  it("formats back without losing digits", () => {
    expect(formatMinor(123456789012345678901234567890n, 2)).toBe("1234567890123456789012345678.90");
  });
});
