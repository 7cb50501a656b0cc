import { describe, expect, it } from "vitest";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import { PurseError } from "../errors/index.ts";
import type { WalletRecord } from "../ledger/wallet-store.ts";
import { checkFunds, checkOperationLimits } from "./limits.ts";
import { checkWalletPair } from "./wallet-pair.ts";

const usd: CurrencyRecord = {
  id: 1,
  code: "USD",
  name: "US Dollar",
  rate: "1",
  icon: "",
  precession: 2,
  prefix: "$",
  minAmountMinor: 100n,
  maxAmountMinor: 1_000_000n,
  enabled: true,
  directions: { checkout: true, transfer: true },
  commission: {
    checkout: { percent: { coefficient: 15n, scale: 1 }, fixedMinor: 0n },
    transfer: { percent: { coefficient: 1n, scale: 0 }, fixedMinor: 10n },
    voucher: { percent: { coefficient: 2n, scale: 0 }, fixedMinor: 0n },
  },
};

function wallet(overrides: Partial<WalletRecord> = {}): WalletRecord {
  return {
    id: 1,
    number: "W1",
    userId: 1,
    status: "ACTIVE",
    balanceMinor: 10_000n,
    amountLimitMinor: 100_000n,
    canDeposit: true,
    canWithdraw: true,
    ownerBlocked: false,
    ownerRole: "merchant",
    currencyId: 1,
    currency: usd,
    ...overrides,
  };
}

const sender = wallet();
const receiver = wallet({ id: 2, number: "W2", userId: 2 });

function failure(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    return PurseError.is(error) ? `${error.code}: ${error.message}` : String(error);
  }
}

describe("checkWalletPair", () => {
  it("accepts two active wallets of two users in one currency", () => {
    expect(checkWalletPair(sender, receiver)).toEqual({ sender, receiver });
  });
  it.each<[string, WalletRecord | null, WalletRecord | null, string]>([
    ["no receiver", sender, null, "WALLET_TO_NOT_EXISTS"],
    ["a NEW receiver", sender, { ...receiver, status: "NEW" }, "WALLET_TO_NOT_EXISTS"],
    ["a deleted receiver", sender, { ...receiver, status: "DELETED" }, "WALLET_TO_NOT_EXISTS"],
    ["no sender", null, receiver, "WALLET_FROM_NOT_EXISTS"],
    ["a NEW sender", { ...sender, status: "NEW" }, receiver, "WALLET_FROM_NOT_EXISTS"],
    ["the same wallet", sender, sender, "WALLET_TO_NOT_EXISTS"],
    ["the same owner", sender, { ...receiver, userId: 1 }, "WALLET_TO_NOT_EXISTS"],
    ["two currencies", sender, { ...receiver, currencyId: 2 }, "CURRENCIES_NOT_EQUAL"],
    ["a blocked sender", { ...sender, ownerBlocked: true }, receiver, "SENDER_BLOCKED"],
    ["a blocked receiver", sender, { ...receiver, ownerBlocked: true }, "RECIPIENT_BLOCKED"],
  ])("refuses %s", (_case, from, to, code) => {
    expect(failure(() => checkWalletPair(from, to))).toMatch(new RegExp(`^${code}:`));
  });
  it("reports a missing receiver before a missing sender (the spec table's order)", () => {
    expect(failure(() => checkWalletPair(null, null))).toMatch(/^WALLET_TO_NOT_EXISTS/);
  });
});

describe("checkOperationLimits", () => {
  it("takes the boundary amounts themselves", () => {
    expect(failure(() => checkOperationLimits("transfer", usd, 100n, receiver, 100n, sender))).toBe("ok");
    const roomy = { ...receiver, amountLimitMinor: 10_000_000n };
    expect(failure(() => checkOperationLimits("transfer", usd, 1_000_000n, roomy, 1_000_000n, sender))).toBe(
      "ok",
    );
  });
  it("refuses one minor unit past either end, naming the limit in the currency's format", () => {
    expect(failure(() => checkOperationLimits("transfer", usd, 99n, receiver, 99n, sender))).toBe(
      "MIN_AMOUNT: Minimum amount exceeded 1.00 for USD",
    );
    expect(
      failure(() => checkOperationLimits("transfer", usd, 1_000_001n, receiver, 1_000_001n, sender)),
    ).toBe("MAX_AMOUNT: Maximum amount exceeded 10000.00 for USD");
  });
  it("refuses a credit that takes the receiver past its amountLimit, with the wallet's limit", () => {
    const full = { ...receiver, balanceMinor: 99_950n };
    expect(failure(() => checkOperationLimits("transfer", usd, 100n, full, 50n, sender))).toBe("ok");
    expect(failure(() => checkOperationLimits("transfer", usd, 100n, full, 51n, sender))).toBe(
      "MAX_AMOUNT: Maximum amount exceeded 1000.00 for USD",
    );
  });
  it("refuses a disabled currency and a closed direction", () => {
    expect(
      failure(() => checkOperationLimits("transfer", { ...usd, enabled: false }, 500n, receiver, 500n)),
    ).toMatch(/^CURRENCY_DISABLED: Currency is disabled/);
    const noCheckout = { ...usd, directions: { checkout: false, transfer: true } };
    expect(failure(() => checkOperationLimits("checkout", noCheckout, 500n, receiver, 500n))).toBe(
      "DIRECTION_INACTIVE: Direction not active",
    );
    expect(failure(() => checkOperationLimits("transfer", noCheckout, 500n, receiver, 500n, sender))).toBe(
      "ok",
    );
  });
  it("honours the wallets' API flags: no withdrawals out, no deposits in", () => {
    expect(
      failure(() =>
        checkOperationLimits("transfer", usd, 500n, receiver, 500n, { ...sender, canWithdraw: false }),
      ),
    ).toMatch(/^DIRECTION_INACTIVE/);
    expect(
      failure(() => checkOperationLimits("checkout", usd, 500n, { ...receiver, canDeposit: false }, 500n)),
    ).toMatch(/^DIRECTION_INACTIVE/);
  });
});

describe("checkFunds", () => {
  it("lets a payer spend exactly the balance and not one minor unit more, in each context's words", () => {
    expect(failure(() => checkFunds("transfer", sender, 10_000n))).toBe("ok");
    expect(failure(() => checkFunds("transfer", sender, 10_001n))).toBe(
      "INSUFFICIENT_FUNDS: balance - amount - commission < 0",
    );
    expect(failure(() => checkFunds("checkout", sender, 10_001n))).toBe(
      "CHECKOUT_AMOUNT_NOT_CORRECT: Amount is not correct",
    );
    expect(failure(() => checkFunds("pay", sender, 10_001n))).toBe(
      "PAY_INSUFFICIENT_FUNDS: Deposit your wallet, you not have funds",
    );
  });
});
