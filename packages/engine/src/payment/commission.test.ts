import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Decimal, parseDecimal } from "../money/index.ts";
import { type CommissionRule, commissionFor } from "./commission.ts";

function decimal(text: string): Decimal {
  const value = parseDecimal(text);
  if (!value) throw new Error(`bad decimal in a test: ${text}`);
  return value;
}

function rule(percent: string, fixedMinor = 0n): CommissionRule {
  return { percent: decimal(percent), fixedMinor };
}

describe("commissionFor", () => {
  it("is the rounded percentage plus the fixed part", () => {
    expect(commissionFor(1000n, rule("1", 10n))).toBe(20n); // 1% of 10.00 + 0.10
    expect(commissionFor(1000n, rule("1.5"))).toBe(15n); // 1.5% of 10.00
    expect(commissionFor(5000n, rule("2"))).toBe(100n); // the fixture's voucher rule on 50.00
  });

  it("charges nothing at 0% without a fixed part, and only the fixed part at 0%", () => {
    expect(commissionFor(1000n, rule("0"))).toBe(0n);
    expect(commissionFor(1000n, rule("0", 25n))).toBe(25n);
    expect(commissionFor(1n, rule("0", 25n))).toBe(25n);
    expect(commissionFor(0n, rule("1.5", 7n))).toBe(7n);
  });

  it("rounds exactly half a minor unit up, also where half-even would round down", () => {
    expect(commissionFor(50n, rule("1"))).toBe(1n); // 0.005 → 0.01
    expect(commissionFor(250n, rule("1"))).toBe(3n); // 0.025 → 0.03 (half-even: 0.02)
    expect(commissionFor(150n, rule("1"))).toBe(2n); // 0.015 → 0.02
    expect(commissionFor(20n, rule("2.5"))).toBe(1n); // 0.005 → 0.01
  });

  it("rounds less than half a minor unit down", () => {
    expect(commissionFor(49n, rule("1"))).toBe(0n); // 0.0049 → 0.00
    expect(commissionFor(149n, rule("1"))).toBe(1n); // 0.0149 → 0.01
    expect(commissionFor(1n, rule("49.999"))).toBe(0n); // 0.49999 of a minor unit
    expect(commissionFor(1n, rule("50"))).toBe(1n); // exactly half of the smallest amount
  });

  it("rounds the percentage, not the sum with the fixed part", () => {
    expect(commissionFor(333n, rule("1.5", 10n))).toBe(15n); // 4.995 → 5, + 10
    expect(commissionFor(333n, rule("1.4", 10n))).toBe(15n); // 4.662 → 5, + 10
    expect(commissionFor(300n, rule("1.4", 10n))).toBe(14n); // 4.2 → 4, + 10
  });

  it("works in every precession: whole units (JPY) and eight decimals (BTC)", () => {
    expect(commissionFor(101n, rule("1.5"))).toBe(2n); // ¥1.515 → ¥2
    expect(commissionFor(100n, rule("1.5"))).toBe(2n); // ¥1.5 → ¥2
    expect(commissionFor(1n, rule("0.5"))).toBe(0n); // 0.5% of one satoshi
    expect(commissionFor(100n, rule("0.5"))).toBe(1n); // half a satoshi → 1
  });

  it("stays exact where a double would lose digits", () => {
    // 0.0001% of 1 234 567 890 123 456.78 = 1 234 567.89012345678 → 1 234 567.89
    expect(commissionFor(123_456_789_012_345_678n, rule("0.0001"))).toBe(123_456_789_012n);
    // 1.5% of 10^30 minor units, beyond any 64-bit integer
    expect(commissionFor(10n ** 30n, rule("1.5"))).toBe(15n * 10n ** 27n);
    // a percentage with 20 decimals: 0.00000000000000000005% of 10^21 = 0.5 → 1, of 10^22 = 5
    expect(commissionFor(10n ** 21n, rule("0.00000000000000000005"))).toBe(1n);
    expect(commissionFor(10n ** 22n, rule("0.00000000000000000005"))).toBe(5n);
  });

  it("takes 100% and more literally", () => {
    expect(commissionFor(1234n, rule("100"))).toBe(1234n);
    expect(commissionFor(1000n, rule("150"))).toBe(1500n);
  });

  it("matches an independent half-up formula for any amount and rule", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.integer({ min: 0, max: 8 }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        (amount, coefficient, scale, fixed) => {
          const denominator = 100n * 10n ** BigInt(scale);
          // floor(x + 1/2) with x = amount × coefficient / denominator, all non-negative
          const expected = (2n * amount * coefficient + denominator) / (2n * denominator) + fixed;
          expect(commissionFor(amount, { percent: { coefficient, scale }, fixedMinor: fixed })).toBe(
            expected,
          );
        },
      ),
    );
  });

  it("refuses negative amounts and negative rules instead of paying out a fee", () => {
    expect(() => commissionFor(-1n, rule("1"))).toThrow(RangeError);
    expect(() => commissionFor(100n, rule("-1"))).toThrow(RangeError);
    expect(() => commissionFor(100n, rule("1", -1n))).toThrow(RangeError);
  });
});
