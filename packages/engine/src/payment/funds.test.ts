import { describe, expect, it } from "vitest";
import { checkFunds } from "./funds.ts";
import { outcome } from "./rules.test-support.ts";

describe("checkFunds", () => {
  const payer = { balanceMinor: 10_000n };

  it("lets a payer spend the balance down to exactly zero", () => {
    for (const context of ["transfer", "checkout", "pay"] as const) {
      expect(outcome(() => checkFunds(context, payer, 10_000n))).toBe("ok");
      expect(outcome(() => checkFunds(context, payer, 1n))).toBe("ok");
    }
  });

  it("refuses one minor unit more, in each context's own words", () => {
    expect(outcome(() => checkFunds("transfer", payer, 10_001n))).toBe(
      "INSUFFICIENT_FUNDS: balance - amount - commission < 0",
    );
    expect(outcome(() => checkFunds("checkout", payer, 10_001n))).toBe(
      "CHECKOUT_AMOUNT_NOT_CORRECT: Amount is not correct",
    );
    expect(outcome(() => checkFunds("pay", payer, 10_001n))).toBe(
      "PAY_INSUFFICIENT_FUNDS: Deposit your wallet, you not have funds",
    );
  });

  it("refuses anything from an empty wallet and takes nothing as nothing", () => {
    expect(outcome(() => checkFunds("transfer", { balanceMinor: 0n }, 1n))).toMatch(/^INSUFFICIENT_FUNDS/);
    expect(outcome(() => checkFunds("transfer", { balanceMinor: 0n }, 0n))).toBe("ok");
  });

  it("compares balances beyond 64 bits exactly", () => {
    const whale = { balanceMinor: 2n ** 70n };
    expect(outcome(() => checkFunds("pay", whale, 2n ** 70n))).toBe("ok");
    expect(outcome(() => checkFunds("pay", whale, 2n ** 70n + 1n))).toMatch(/^PAY_INSUFFICIENT_FUNDS/);
  });
});
