import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import {
  type CurrencyPolicy,
  checkAmountBounds,
  checkCurrencyOpen,
  checkOperationLimits,
  checkReceiverLimit,
  checkWalletDirections,
} from "./limits.ts";
import { outcome, receiver, sender, usd } from "./rules.test-support.ts";

function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const closed = (directions: Partial<CurrencyPolicy["directions"]>): CurrencyPolicy => ({
  ...usd,
  directions: { ...usd.directions, ...directions },
});

describe("checkAmountBounds", () => {
  it("takes the bounds themselves", () => {
    expect(outcome(() => checkAmountBounds(usd, 100n))).toBe("ok");
    expect(outcome(() => checkAmountBounds(usd, 1_000_000n))).toBe("ok");
  });

  it("refuses one minor unit past either end, naming the bound in the currency's format", () => {
    expect(outcome(() => checkAmountBounds(usd, 99n))).toBe(
      "MIN_AMOUNT: Minimum amount exceeded 1.00 for USD",
    );
    expect(outcome(() => checkAmountBounds(usd, 1_000_001n))).toBe(
      "MAX_AMOUNT: Maximum amount exceeded 10000.00 for USD",
    );
  });

  it("formats bounds of any precession exactly, with the amount field at fault", () => {
    const jpy = { ...usd, code: "JPY", precession: 0, minAmountMinor: 100n, maxAmountMinor: 9_000_000n };
    expect(outcome(() => checkAmountBounds(jpy, 99n))).toBe(
      "MIN_AMOUNT: Minimum amount exceeded 100 for JPY",
    );
    const btc = {
      ...usd,
      code: "BTC",
      precession: 8,
      minAmountMinor: 100n,
      maxAmountMinor: 2_100_000_000_000_000n,
    };
    expect(outcome(() => checkAmountBounds(btc, 99n))).toBe(
      "MIN_AMOUNT: Minimum amount exceeded 0.00000100 for BTC",
    );
    expect(outcome(() => checkAmountBounds(btc, 2_100_000_000_000_001n))).toBe(
      "MAX_AMOUNT: Maximum amount exceeded 21000000.00000000 for BTC",
    );
    const error = thrownBy(() => checkAmountBounds(usd, 1n));
    expect(PurseError.is(error) && error.field).toBe("amount");
    expect(PurseError.is(error) && error.params).toEqual({ min: "1.00", currency: "USD" });
  });
});

describe("checkReceiverLimit", () => {
  it("lets a credit fill the wallet up to its amountLimit exactly, not one minor unit past", () => {
    const nearlyFull = { ...receiver, balanceMinor: 99_950n };
    expect(outcome(() => checkReceiverLimit(usd, nearlyFull, 50n))).toBe("ok");
    expect(outcome(() => checkReceiverLimit(usd, nearlyFull, 51n))).toBe(
      "MAX_AMOUNT: Maximum amount exceeded 1000.00 for USD",
    );
  });

  it("refuses any credit into a wallet already at or over its limit (a limit lowered later)", () => {
    expect(outcome(() => checkReceiverLimit(usd, { ...receiver, balanceMinor: 200_000n }, 1n))).toMatch(
      /^MAX_AMOUNT/,
    );
    expect(
      outcome(() => checkReceiverLimit(usd, { ...receiver, amountLimitMinor: 0n, balanceMinor: 0n }, 1n)),
    ).toBe("MAX_AMOUNT: Maximum amount exceeded 0.00 for USD");
  });

  it("counts huge balances exactly", () => {
    const rich = { ...receiver, balanceMinor: 10n ** 25n, amountLimitMinor: 10n ** 25n + 1n };
    expect(outcome(() => checkReceiverLimit(usd, rich, 1n))).toBe("ok");
    expect(outcome(() => checkReceiverLimit(usd, rich, 2n))).toBe(
      "MAX_AMOUNT: Maximum amount exceeded 100000000000000000000000.01 for USD",
    );
  });
});

describe("checkCurrencyOpen", () => {
  it("refuses a disabled currency for every operation", () => {
    for (const operation of ["checkout", "transfer", "voucher"] as const) {
      expect(outcome(() => checkCurrencyOpen(operation, { ...usd, enabled: false }))).toBe(
        "CURRENCY_DISABLED: Currency is disabled",
      );
    }
  });

  it("closes each direction on its own; vouchers have no direction switch", () => {
    expect(outcome(() => checkCurrencyOpen("checkout", closed({ checkout: false })))).toBe(
      "DIRECTION_INACTIVE: Direction not active",
    );
    expect(outcome(() => checkCurrencyOpen("transfer", closed({ checkout: false })))).toBe("ok");
    expect(outcome(() => checkCurrencyOpen("transfer", closed({ transfer: false })))).toBe(
      "DIRECTION_INACTIVE: Direction not active",
    );
    expect(outcome(() => checkCurrencyOpen("voucher", closed({ checkout: false, transfer: false })))).toBe(
      "ok",
    );
  });
});

describe("checkWalletDirections", () => {
  it("honours the wallets' API flags: a transfer withdraws from the sender, a checkout deposits to the receiver", () => {
    expect(outcome(() => checkWalletDirections("transfer", receiver, { canWithdraw: false }))).toBe(
      "DIRECTION_INACTIVE: Direction not active",
    );
    expect(outcome(() => checkWalletDirections("transfer", { ...receiver, canDeposit: false }, sender))).toBe(
      "ok",
    );
    expect(outcome(() => checkWalletDirections("checkout", { ...receiver, canDeposit: false }))).toBe(
      "DIRECTION_INACTIVE: Direction not active",
    );
    expect(outcome(() => checkWalletDirections("checkout", receiver, { canWithdraw: false }))).toBe("ok");
    expect(outcome(() => checkWalletDirections("voucher", { ...receiver, canDeposit: false }))).toBe("ok");
  });

  it("treats a transfer without its sender as a programming error, not a pass", () => {
    expect(() => checkWalletDirections("transfer", receiver)).toThrow(TypeError);
  });
});

describe("checkOperationLimits", () => {
  it("passes a sound transfer, checkout and voucher", () => {
    expect(outcome(() => checkOperationLimits("transfer", usd, 1000n, receiver, 1000n, sender))).toBe("ok");
    expect(outcome(() => checkOperationLimits("checkout", usd, 1000n, receiver, 985n))).toBe("ok");
    expect(outcome(() => checkOperationLimits("voucher", usd, 5000n, receiver, 4900n))).toBe("ok");
  });

  it("holds the receiver's limit against the net credit, not the gross amount", () => {
    const room = { ...receiver, balanceMinor: 99_015n }; // 9.85 of room below 1000.00
    expect(outcome(() => checkOperationLimits("checkout", usd, 1000n, room, 985n))).toBe("ok");
    expect(outcome(() => checkOperationLimits("checkout", usd, 1000n, room, 986n))).toMatch(/^MAX_AMOUNT/);
  });

  it.each<[string, () => void, string]>([
    [
      "a disabled currency before a closed direction",
      () =>
        checkOperationLimits(
          "checkout",
          { ...closed({ checkout: false }), enabled: false },
          500n,
          receiver,
          500n,
        ),
      "CURRENCY_DISABLED",
    ],
    [
      "a disabled currency before an amount below the minimum",
      () => checkOperationLimits("transfer", { ...usd, enabled: false }, 1n, receiver, 1n, sender),
      "CURRENCY_DISABLED",
    ],
    [
      "a closed direction before an amount above the maximum",
      () =>
        checkOperationLimits(
          "transfer",
          closed({ transfer: false }),
          2_000_000n,
          receiver,
          2_000_000n,
          sender,
        ),
      "DIRECTION_INACTIVE",
    ],
    [
      "a wallet flag before an amount below the minimum",
      () => checkOperationLimits("transfer", usd, 1n, receiver, 1n, { canWithdraw: false }),
      "DIRECTION_INACTIVE",
    ],
    [
      "the minimum before the receiver's limit",
      () => checkOperationLimits("checkout", usd, 1n, { ...receiver, amountLimitMinor: 0n }, 1n),
      "MIN_AMOUNT",
    ],
    [
      "the currency maximum before the receiver's limit",
      () =>
        checkOperationLimits("checkout", usd, 1_000_001n, { ...receiver, amountLimitMinor: 0n }, 1_000_001n),
      "MAX_AMOUNT: Maximum amount exceeded 10000.00",
    ],
  ])("reports %s", (_case, run, expected) => {
    expect(outcome(run).startsWith(expected)).toBe(true);
  });
});
