import { describe, expect, it } from "vitest";
import { parseDecimal } from "../money/index.ts";
import { commissionFor, splitPayment } from "./commission.ts";

function rule(percent: string, fixedMinor: bigint) {
  const value = parseDecimal(percent);
  if (!value) throw new Error(percent);
  return { percent: value, fixedMinor };
}

describe("commissionFor", () => {
  it("adds the fixed part to the rounded percentage", () => {
    expect(commissionFor(1000n, rule("1", 10n))).toBe(20n); // 1% of 10.00 + 0.10
    expect(commissionFor(1000n, rule("1.5", 0n))).toBe(15n);
    expect(commissionFor(1000n, rule("0", 0n))).toBe(0n);
    expect(commissionFor(1000n, rule("0", 25n))).toBe(25n);
  });
  it("rounds half a minor unit up and less than half down", () => {
    expect(commissionFor(50n, rule("1", 0n))).toBe(1n); // 0.005 → 0.01
    expect(commissionFor(49n, rule("1", 0n))).toBe(0n); // 0.0049 → 0.00
    expect(commissionFor(333n, rule("1.5", 0n))).toBe(5n); // 4.995 → 5
  });
  it("keeps fine percentages exact on large amounts", () => {
    // 0.0001% of 1 234 567 890 123 456.78 is 1 234 567.89012345678 → 1 234 567.89
    expect(commissionFor(123_456_789_012_345_678n, rule("0.0001", 0n))).toBe(123_456_789_012n);
  });
});

describe("splitPayment", () => {
  it("charges a transfer's commission to the sender on top of the amount", () => {
    expect(splitPayment("transfer", 1000n, rule("1", 10n))).toEqual({
      debitMinor: 1020n,
      creditMinor: 1000n,
      feeMinor: 20n,
    });
  });
  it("takes checkout and voucher commission out of what the receiver gets", () => {
    expect(splitPayment("checkout", 1000n, rule("1.5", 0n))).toEqual({
      debitMinor: 1000n,
      creditMinor: 985n,
      feeMinor: 15n,
    });
    expect(splitPayment("voucher", 5000n, rule("2", 0n))).toEqual({
      debitMinor: 5000n,
      creditMinor: 4900n,
      feeMinor: 100n,
    });
  });
  it("never credits a negative amount when the commission exceeds the amount", () => {
    expect(splitPayment("checkout", 5n, rule("0", 10n))).toEqual({
      debitMinor: 5n,
      creditMinor: 0n,
      feeMinor: 5n,
    });
  });
  it("always balances: debit = credit + fee", () => {
    for (const operation of ["transfer", "checkout", "voucher"] as const) {
      for (const amount of [1n, 99n, 100n, 12345n, 10_000_000n]) {
        const split = splitPayment(operation, amount, rule("2.75", 3n));
        expect(split.debitMinor).toBe(split.creditMinor + split.feeMinor);
      }
    }
  });
});
