import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDecimal } from "../money/index.ts";
import type { CommissionRule, Operation } from "./commission.ts";
import { splitPayment, splitWithFee } from "./payment-split.ts";

function rule(percent: string, fixedMinor = 0n): CommissionRule {
  const value = parseDecimal(percent);
  if (!value) throw new Error(`bad decimal in a test: ${percent}`);
  return { percent: value, fixedMinor };
}

const operations: readonly Operation[] = ["transfer", "checkout", "voucher"];

describe("splitPayment", () => {
  it("charges a transfer's commission to the sender on top of the amount", () => {
    expect(splitPayment("transfer", 1000n, rule("1", 10n))).toEqual({
      debitMinor: 1020n,
      creditMinor: 1000n,
      feeMinor: 20n,
    });
  });

  it("takes checkout and voucher commission out of what the receiver gets", () => {
    expect(splitPayment("checkout", 1000n, rule("1.5"))).toEqual({
      debitMinor: 1000n,
      creditMinor: 985n,
      feeMinor: 15n,
    });
    expect(splitPayment("voucher", 5000n, rule("2"))).toEqual({
      debitMinor: 5000n,
      creditMinor: 4900n,
      feeMinor: 100n,
    });
  });

  it("moves the amount untouched when there is no commission", () => {
    for (const operation of operations) {
      expect(splitPayment(operation, 777n, rule("0"))).toEqual({
        debitMinor: 777n,
        creditMinor: 777n,
        feeMinor: 0n,
      });
    }
  });

  it("credits zero, never less, when a checkout or voucher commission reaches the amount", () => {
    // exactly the amount: everything goes to the fee account
    expect(splitPayment("checkout", 10n, rule("0", 10n))).toEqual({
      debitMinor: 10n,
      creditMinor: 0n,
      feeMinor: 10n,
    });
    // more than the amount: the fee is capped, the payer pays no more than the amount
    expect(splitPayment("checkout", 5n, rule("0", 10n))).toEqual({
      debitMinor: 5n,
      creditMinor: 0n,
      feeMinor: 5n,
    });
    expect(splitPayment("voucher", 1n, rule("150"))).toEqual({
      debitMinor: 1n,
      creditMinor: 0n,
      feeMinor: 1n,
    });
  });

  it("charges a transfer sender the full commission even when it exceeds the amount", () => {
    expect(splitPayment("transfer", 1n, rule("1", 10n))).toEqual({
      debitMinor: 11n,
      creditMinor: 1n,
      feeMinor: 10n,
    });
  });

  it("rounds the commission half-up before splitting", () => {
    // 1% of 2.50 = 0.025 → 0.03
    expect(splitPayment("checkout", 250n, rule("1"))).toEqual({
      debitMinor: 250n,
      creditMinor: 247n,
      feeMinor: 3n,
    });
    expect(splitPayment("transfer", 250n, rule("1"))).toEqual({
      debitMinor: 253n,
      creditMinor: 250n,
      feeMinor: 3n,
    });
  });

  it("always balances (debit = credit + fee) and never credits or charges below zero", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...operations),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.bigInt({ min: 0n, max: 200_000n }),
        fc.integer({ min: 0, max: 3 }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        (operation, amount, coefficient, scale, fixed) => {
          const split = splitPayment(operation, amount, {
            percent: { coefficient, scale },
            fixedMinor: fixed,
          });
          expect(split.debitMinor).toBe(split.creditMinor + split.feeMinor);
          expect(split.creditMinor >= 0n && split.feeMinor >= 0n).toBe(true);
          if (operation === "transfer") expect(split.creditMinor).toBe(amount);
          else expect(split.debitMinor).toBe(amount);
        },
      ),
    );
  });
});

describe("splitWithFee", () => {
  it("splits with a commission fixed earlier, whatever the rule says now", () => {
    expect(splitWithFee("checkout", 1000n, 15n)).toEqual({
      debitMinor: 1000n,
      creditMinor: 985n,
      feeMinor: 15n,
    });
    expect(splitWithFee("transfer", 1000n, 20n)).toEqual({
      debitMinor: 1020n,
      creditMinor: 1000n,
      feeMinor: 20n,
    });
    expect(splitWithFee("checkout", 10n, 15n)).toEqual({ debitMinor: 10n, creditMinor: 0n, feeMinor: 10n });
  });

  it("refuses negative inputs", () => {
    expect(() => splitWithFee("checkout", -1n, 0n)).toThrow(RangeError);
    expect(() => splitWithFee("transfer", 100n, -1n)).toThrow(RangeError);
  });
});
