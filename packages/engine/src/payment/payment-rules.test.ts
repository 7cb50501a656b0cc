import { describe, expect, it } from "vitest";
import { checkPayment, type PaymentRequest, type PaymentWallet } from "./payment-rules.ts";
import { outcome, receiver, sender, usd } from "./rules.test-support.ts";

const transfer: PaymentRequest<PaymentWallet> = {
  context: "transfer",
  walletFrom: sender,
  walletTo: receiver,
  amount: "10.00",
};
const codeOf = (request: PaymentRequest<PaymentWallet>) => outcome(() => checkPayment(request)).split(":")[0];

describe("checkPayment", () => {
  it("returns the checked pair, the amount in minor units and the transfer's split", () => {
    expect(checkPayment(transfer)).toEqual({
      sender,
      receiver,
      currency: usd,
      amountMinor: 1000n,
      split: { debitMinor: 1020n, creditMinor: 1000n, feeMinor: 20n }, // 1% + 0.10 on top
    });
  });

  it("takes a checkout's commission out of the receiver's credit", () => {
    const checked = checkPayment({ ...transfer, context: "checkout" });
    expect(checked.split).toEqual({ debitMinor: 1000n, creditMinor: 985n, feeMinor: 15n });
  });

  it("pays a checkout page with the commission fixed when the link was made", () => {
    const checked = checkPayment({ ...transfer, context: "pay", amount: 1000n, commissionMinor: 40n });
    expect(checked.split).toEqual({ debitMinor: 1000n, creditMinor: 960n, feeMinor: 40n });
  });

  it("lets a transfer sender spend down to zero including the commission, not a cent more", () => {
    expect(codeOf({ ...transfer, walletFrom: { ...sender, balanceMinor: 1020n } })).toBe("ok");
    expect(outcome(() => checkPayment({ ...transfer, walletFrom: { ...sender, balanceMinor: 1019n } }))).toBe(
      "INSUFFICIENT_FUNDS: balance - amount - commission < 0",
    );
  });

  it("needs only the amount for a checkout payer: the commission is the receiver's", () => {
    const payer = { ...sender, balanceMinor: 1000n };
    expect(codeOf({ ...transfer, context: "checkout", walletFrom: payer })).toBe("ok");
    expect(codeOf({ ...transfer, context: "checkout", walletFrom: { ...payer, balanceMinor: 999n } })).toBe(
      "CHECKOUT_AMOUNT_NOT_CORRECT",
    );
    expect(codeOf({ ...transfer, context: "pay", walletFrom: { ...payer, balanceMinor: 999n } })).toBe(
      "PAY_INSUFFICIENT_FUNDS",
    );
  });

  it("reads the amount in the pair's currency: too many decimals is a validation error", () => {
    expect(outcome(() => checkPayment({ ...transfer, amount: "10.001" }))).toBe(
      "TOO_PRECISE: This value should have at most 2 decimal places.",
    );
    expect(codeOf({ ...transfer, amount: "10.000" })).toBe("ok"); // trailing zeros lose nothing
  });

  // Each case breaks two rules; the one reported is the earlier in the documented order.
  const blocked = { ...receiver, ownerBlocked: true };
  it.each<[string, Partial<PaymentRequest<PaymentWallet>>, string]>([
    ["a blank amount before a missing wallet_to", { amount: "", walletTo: null }, "BLANK"],
    ["a non-numeric amount before a missing wallet_to", { amount: "ten", walletTo: null }, "NOT_NUMERIC"],
    ["a non-positive amount before a missing wallet_to", { amount: "-1", walletTo: null }, "NOT_POSITIVE"],
    [
      "a missing wallet_to before a missing wallet_from",
      { walletTo: null, walletFrom: null },
      "WALLET_TO_NOT_EXISTS",
    ],
    [
      "a missing wallet_from before two currencies",
      { walletFrom: null, walletTo: { ...receiver, currencyId: 2 } },
      "WALLET_FROM_NOT_EXISTS",
    ],
    [
      "two currencies before a blocked user",
      { walletTo: { ...blocked, currencyId: 2 } },
      "CURRENCIES_NOT_EQUAL",
    ],
    ["a blocked user before too many decimals", { walletTo: blocked, amount: "1.001" }, "RECIPIENT_BLOCKED"],
    [
      "too many decimals before a disabled currency",
      { amount: "1.001", walletFrom: { ...sender, currency: { ...usd, enabled: false } } },
      "TOO_PRECISE",
    ],
    [
      "a disabled currency before an amount below the minimum",
      { amount: "0.01", walletFrom: { ...sender, currency: { ...usd, enabled: false } } },
      "CURRENCY_DISABLED",
    ],
    [
      "a closed direction before an amount above the maximum",
      {
        amount: "20000",
        walletFrom: { ...sender, currency: { ...usd, directions: { checkout: true, transfer: false } } },
      },
      "DIRECTION_INACTIVE",
    ],
    [
      "the sender's withdraw flag before the minimum",
      { amount: "0.50", walletFrom: { ...sender, canWithdraw: false } },
      "DIRECTION_INACTIVE",
    ],
    [
      "the minimum before the funds",
      { amount: "0.99", walletFrom: { ...sender, balanceMinor: 0n } },
      "MIN_AMOUNT",
    ],
    [
      "the maximum before the funds",
      { amount: "10000.01", walletFrom: { ...sender, balanceMinor: 0n } },
      "MAX_AMOUNT",
    ],
    [
      "the receiver's limit before the funds",
      { walletFrom: { ...sender, balanceMinor: 0n }, walletTo: { ...receiver, amountLimitMinor: 0n } },
      "MAX_AMOUNT",
    ],
  ])("reports %s", (_case, faults, code) => {
    expect(codeOf({ ...transfer, ...faults })).toBe(code);
  });

  it("uses the checkout direction and the receiver's deposit flag for checkout and pay", () => {
    const noCheckout = { ...usd, directions: { checkout: false, transfer: true } };
    expect(
      codeOf({ ...transfer, context: "checkout", walletFrom: { ...sender, currency: noCheckout } }),
    ).toBe("DIRECTION_INACTIVE");
    expect(
      codeOf({ ...transfer, context: "pay", walletTo: { ...receiver, canDeposit: false }, amount: 1000n }),
    ).toBe("DIRECTION_INACTIVE");
    expect(codeOf({ ...transfer, context: "checkout", walletFrom: { ...sender, canWithdraw: false } })).toBe(
      "ok",
    );
  });
});
