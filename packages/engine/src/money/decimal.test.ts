import { describe, expect, it } from "vitest";
import {
  divideHalfUp,
  formatScaledInteger,
  normaliseDecimalText,
  parseDecimal,
  toScaledInteger,
} from "./decimal.ts";

describe("parseDecimal", () => {
  it("reads plain decimals exactly", () => {
    expect(parseDecimal("12.50")).toEqual({ coefficient: 1250n, scale: 2 });
    expect(parseDecimal("-0.5")).toEqual({ coefficient: -5n, scale: 1 });
    expect(parseDecimal(".25")).toEqual({ coefficient: 25n, scale: 2 });
    expect(parseDecimal(" 7 ")).toEqual({ coefficient: 7n, scale: 0 });
  });
  it("refuses exponents, blanks and words", () => {
    for (const text of ["", "1e3", "abc", "1.", "1,5", "0x10", "NaN", "Infinity", "1.2.3"]) {
      expect(parseDecimal(text)).toBeNull();
    }
  });
  it("keeps digits a double would lose", () => {
    const value = parseDecimal("90071992547409931.000000000000000001");
    expect(value && formatScaledInteger(value.coefficient, value.scale)).toBe(
      "90071992547409931.000000000000000001",
    );
  });
});

describe("toScaledInteger", () => {
  it("scales up and accepts trailing zeros beyond the precession", () => {
    expect(toScaledInteger({ coefficient: 5n, scale: 0 }, 2)).toBe(500n);
    expect(toScaledInteger({ coefficient: 1500n, scale: 3 }, 2)).toBe(150n);
  });
  it("refuses to drop a digit", () => {
    expect(toScaledInteger({ coefficient: 1501n, scale: 3 }, 2)).toBeNull();
  });
});

describe("divideHalfUp", () => {
  it("rounds halves away from zero", () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(4n, 10n)).toBe(0n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(-15n, 10n)).toBe(-2n);
    expect(divideHalfUp(-14n, 10n)).toBe(-1n);
  });
});

describe("formatting", () => {
  it("pads small values and keeps the sign", () => {
    expect(formatScaledInteger(5n, 2)).toBe("0.05");
    expect(formatScaledInteger(-1234n, 2)).toBe("-12.34");
    expect(formatScaledInteger(42n, 0)).toBe("42");
  });
  it("normalises trailing zeros away", () => {
    expect(normaliseDecimalText({ coefficient: 9200n, scale: 4 })).toBe("0.92");
    expect(normaliseDecimalText({ coefficient: 10n, scale: 1 })).toBe("1");
    expect(normaliseDecimalText({ coefficient: -1200n, scale: 3 })).toBe("-1.2");
    expect(normaliseDecimalText({ coefficient: 1000n, scale: 0 })).toBe("1000");
    expect(normaliseDecimalText({ coefficient: 1000n, scale: 2 })).toBe("10");
    expect(normaliseDecimalText({ coefficient: 0n, scale: 5 })).toBe("0");
    expect(normaliseDecimalText({ coefficient: 105n, scale: 2 })).toBe("1.05");
  });
  it("strips many trailing zeros in one pass", () => {
    const value = parseDecimal(`1.${"0".repeat(20_000)}`);
    expect(value && normaliseDecimalText(value)).toBe("1");
  });
});
