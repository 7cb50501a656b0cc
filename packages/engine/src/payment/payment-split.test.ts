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

/** A payment of `amount` under `rule`, and the split it must give: [debit, credit, fee], minor units. */
type Split = [why: string, Operation, amount: bigint, CommissionRule, [bigint, bigint, bigint]];

const splits: Split[] = [
  // A transfer's sender pays the commission on top; a checkout's or voucher's receiver gets the
  // amount less the commission.
  ["a transfer: commission on top", "transfer", 1000n, rule("1", 10n), [1020n, 1000n, 20n]],
  ["a checkout: commission taken out", "checkout", 1000n, rule("1.5"), [1000n, 985n, 15n]],
  ["a voucher: commission taken out", "voucher", 5000n, rule("2"), [5000n, 4900n, 100n]],
  ...operations.map((op): Split => [`a ${op}: no commission`, op, 777n, rule("0"), [777n, 777n, 0n]]),
  // A checkout's or voucher's commission that reaches the amount is all of it: the receiver gets
  // zero, never less, and the payer no more than the amount. A transfer's sender pays it in full.
  ["a checkout: fee exactly the amount", "checkout", 10n, rule("0", 10n), [10n, 0n, 10n]],
  ["a checkout: fee capped at the amount", "checkout", 5n, rule("0", 10n), [5n, 0n, 5n]],
  ["a voucher: fee capped at the amount", "voucher", 1n, rule("150"), [1n, 0n, 1n]],
  ["a transfer: fee past the amount, in full", "transfer", 1n, rule("1", 10n), [11n, 1n, 10n]],
  // Rounded half-up before splitting: 1% of 2.50 = 0.025 → 0.03.
  ["a checkout: commission rounded half-up", "checkout", 250n, rule("1"), [250n, 247n, 3n]],
  ["a transfer: commission rounded half-up", "transfer", 250n, rule("1"), [253n, 250n, 3n]],
];

describe("splitPayment", () => {
  it.each(splits)("%s", (_why, operation, amount, commission, [debitMinor, creditMinor, feeMinor]) => {
    expect(splitPayment(operation, amount, commission)).toEqual({ debitMinor, creditMinor, feeMinor });
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
