import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { outcome, receiver, sender, wallet } from "./rules.test-support.ts";
import { checkWalletPair, type OperationWallet } from "./wallet-pair.ts";

const codeOf = (from: OperationWallet | null, to: OperationWallet | null) =>
  outcome(() => checkWalletPair(from, to)).split(":")[0];

describe("checkWalletPair", () => {
  it("accepts two active wallets of two users in one currency and hands them back as loaded", () => {
    const pair = checkWalletPair(sender, receiver);
    expect(pair.sender).toBe(sender);
    expect(pair.receiver).toBe(receiver);
    expect(pair.sender.currency.code).toBe("USD"); // extra fields survive the check's typing
  });

  it.each<[string, OperationWallet | null, OperationWallet | null, string]>([
    ["no receiver", sender, null, "WALLET_TO_NOT_EXISTS: Wallet to not exists"],
    ["a NEW receiver", sender, { ...receiver, status: "NEW" }, "WALLET_TO_NOT_EXISTS: Wallet to not exists"],
    [
      "a deleted receiver",
      sender,
      { ...receiver, status: "DELETED" },
      "WALLET_TO_NOT_EXISTS: Wallet to not exists",
    ],
    ["no sender", null, receiver, "WALLET_FROM_NOT_EXISTS: Wallet from not exists"],
    [
      "a NEW sender",
      { ...sender, status: "NEW" },
      receiver,
      "WALLET_FROM_NOT_EXISTS: Wallet from not exists",
    ],
    [
      "a deleted sender",
      { ...sender, status: "DELETED" },
      receiver,
      "WALLET_FROM_NOT_EXISTS: Wallet from not exists",
    ],
    ["the same wallet twice", sender, sender, "WALLET_TO_NOT_EXISTS: Wallet to not exists"],
    [
      "two wallets of one owner",
      sender,
      { ...receiver, userId: 1 },
      "WALLET_TO_NOT_EXISTS: Wallet to not exists",
    ],
    [
      "two currencies",
      sender,
      { ...receiver, currencyId: 2 },
      "CURRENCIES_NOT_EQUAL: Currencies are not equals",
    ],
    ["a blocked sender", { ...sender, ownerBlocked: true }, receiver, "SENDER_BLOCKED: User is blocked"],
    ["a blocked receiver", sender, { ...receiver, ownerBlocked: true }, "RECIPIENT_BLOCKED: User is blocked"],
  ])("refuses %s", (_case, from, to, expected) => {
    expect(outcome(() => checkWalletPair(from, to))).toBe(expected);
  });

  it("names the field at fault and tells the two blocked users apart by translation key", () => {
    const failure = (from: OperationWallet | null, to: OperationWallet | null) => {
      try {
        checkWalletPair(from, to);
      } catch (error) {
        if (PurseError.is(error)) return { field: error.field, translation: error.translation };
      }
      return null;
    };
    expect(failure(sender, null)?.field).toBe("walletTo");
    expect(failure(null, receiver)?.field).toBe("walletFrom");
    expect(failure({ ...sender, ownerBlocked: true }, receiver)?.translation).toBe(
      "server_error.sender_account_is_blocked",
    );
    expect(failure(sender, { ...receiver, ownerBlocked: true })?.translation).toBe(
      "server_error.recipient_account_is_blocked",
    );
  });

  it.each<[string, OperationWallet | null, OperationWallet | null, string]>([
    ["a missing receiver before a missing sender", null, null, "WALLET_TO_NOT_EXISTS"],
    [
      "an inactive receiver before an inactive sender",
      { ...sender, status: "NEW" },
      { ...receiver, status: "DELETED" },
      "WALLET_TO_NOT_EXISTS",
    ],
    [
      "an inactive sender before the same owner",
      { ...sender, status: "NEW" },
      { ...receiver, userId: 1 },
      "WALLET_FROM_NOT_EXISTS",
    ],
    [
      "the same owner before two currencies",
      sender,
      { ...receiver, userId: 1, currencyId: 2 },
      "WALLET_TO_NOT_EXISTS",
    ],
    [
      "two currencies before a blocked sender",
      { ...sender, ownerBlocked: true },
      { ...receiver, currencyId: 2 },
      "CURRENCIES_NOT_EQUAL",
    ],
    [
      "a blocked sender before a blocked receiver",
      { ...sender, ownerBlocked: true },
      { ...receiver, ownerBlocked: true },
      "SENDER_BLOCKED",
    ],
    [
      "a missing sender before a blocked receiver",
      null,
      { ...receiver, ownerBlocked: true },
      "WALLET_FROM_NOT_EXISTS",
    ],
  ])("reports %s", (_case, from, to, code) => {
    expect(codeOf(from, to)).toBe(code);
  });

  it("looks only at status, owners, currency and blocks: balances and flags are the limits' business", () => {
    const poor = wallet({ balanceMinor: 0n, canWithdraw: false, canDeposit: false });
    expect(outcome(() => checkWalletPair(poor, receiver))).toBe("ok");
  });
});
