import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { VoucherStatus, VoucherType } from "./voucher-codes.ts";
import {
  type ActivationFacts,
  activatableType,
  checkActivationTarget,
  checkVoucherActivation,
  checkVoucherRedeemable,
  type VoucherFacts,
} from "./voucher-rules.ts";

const now = new Date("2026-06-01T12:00:00Z");
const voucher: VoucherFacts = {
  codeMatches: true,
  status: VoucherStatus.PENDING,
  type: VoucherType.PARTNER_PURCHASED,
  expiredAt: new Date("2030-01-01T00:00:00Z"),
  creatorBlocked: false,
  transactionStatus: 3,
  currencyCode: "USD",
  amountMinor: 5000n,
};
const valid: ActivationFacts = {
  activationEnabled: true,
  voucher,
  activator: { userId: 1, role: "merchant", blocked: false },
  walletTo: { userId: 1, status: "ACTIVE", currencyCode: "USD" },
  now,
};
const partner = { userId: 1, role: "partner", blocked: false } as const;

/** "ok", or the refusal as "CODE: message". */
function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    if (PurseError.is(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}
const activation = (facts: ActivationFacts) => outcome(() => checkVoucherActivation(facts));
const codeOf = (facts: ActivationFacts) => activation(facts).split(":")[0];

describe("checkVoucherActivation", () => {
  it("lets a merchant activate a partner's voucher and a partner a merchant's", () => {
    expect(activation(valid)).toBe("ok");
    expect(
      activation({
        ...valid,
        activator: partner,
        voucher: { ...voucher, type: VoucherType.MERCHANT_PURCHASED },
      }),
    ).toBe("ok");
  });

  it("accepts the last millisecond before expiry", () => {
    expect(activation({ ...valid, voucher: { ...voucher, expiredAt: new Date(now.getTime() + 1) } })).toBe(
      "ok",
    );
  });

  it.each<[string, ActivationFacts, string]>([
    [
      "activation is switched off",
      { ...valid, activationEnabled: false },
      "VOUCHER_ACTIVATION_DISABLED: Voucher activation disabled",
    ],
    [
      "the activator is blocked",
      { ...valid, activator: { ...valid.activator, blocked: true } },
      "USER_BLOCKED: User is blocked",
    ],
    ["no voucher has that number", { ...valid, voucher: null }, "VOUCHER_INVALID: Voucher invalid"],
    [
      "the code is wrong",
      { ...valid, voucher: { ...voucher, codeMatches: false } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "the creator is blocked",
      { ...valid, voucher: { ...voucher, creatorBlocked: true } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "it is already activated",
      { ...valid, voucher: { ...voucher, status: VoucherStatus.ACTIVATED } },
      "VOUCHER_CLOSED: Voucher closed",
    ],
    [
      "it is closed",
      { ...valid, voucher: { ...voucher, status: VoucherStatus.CLOSED } },
      "VOUCHER_CLOSED: Voucher closed",
    ],
    [
      "its status is unknown",
      { ...valid, voucher: { ...voucher, status: 7 } },
      "VOUCHER_CLOSED: Voucher closed",
    ],
    [
      "it expires this very instant",
      { ...valid, voucher: { ...voucher, expiredAt: now } },
      "VOUCHER_CLOSED: Voucher closed",
    ],
    [
      "it expired long ago, still pending",
      { ...valid, voucher: { ...voucher, expiredAt: new Date("2020-01-01T00:00:00Z") } },
      "VOUCHER_CLOSED: Voucher closed",
    ],
    [
      "its purchase is pending",
      { ...valid, voucher: { ...voucher, transactionStatus: 1 } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "its purchase failed",
      { ...valid, voucher: { ...voucher, transactionStatus: 2 } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "its purchase was cancelled",
      { ...valid, voucher: { ...voucher, transactionStatus: 4 } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "a merchant brings a merchant-bought voucher",
      { ...valid, voucher: { ...voucher, type: VoucherType.MERCHANT_PURCHASED } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "a partner brings a partner-bought voucher",
      { ...valid, activator: partner },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "the type is unknown",
      { ...valid, voucher: { ...voucher, type: 3 } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    [
      "the voucher is not in USD",
      { ...valid, voucher: { ...voucher, currencyCode: "EUR" } },
      "VOUCHER_INVALID: Voucher invalid",
    ],
    ["no wallet has that number", { ...valid, walletTo: null }, "WALLET_TO_NOT_EXISTS: Wallet to not exists"],
    [
      "the wallet is NEW",
      { ...valid, walletTo: { userId: 1, status: "NEW", currencyCode: "USD" } },
      "WALLET_TO_NOT_EXISTS: Wallet to not exists",
    ],
    [
      "the wallet is deleted",
      { ...valid, walletTo: { userId: 1, status: "DELETED", currencyCode: "USD" } },
      "WALLET_TO_NOT_EXISTS: Wallet to not exists",
    ],
    [
      "the wallet is someone else's",
      { ...valid, walletTo: { userId: 9, status: "ACTIVE", currencyCode: "USD" } },
      "WALLET_TO_NOT_EXISTS: Wallet to not exists",
    ],
    [
      "the wallet is in EUR",
      { ...valid, walletTo: { userId: 1, status: "ACTIVE", currencyCode: "EUR" } },
      "ONLY_USD_WALLET: Only USD wallet allowed",
    ],
  ])("refuses when %s", (_case, facts, expected) => {
    expect(activation(facts)).toBe(expected);
  });

  it("names walletTo, the contract's field, as the one at fault for the wallet rules", () => {
    for (const walletTo of [null, { userId: 1, status: "ACTIVE", currencyCode: "EUR" } as const]) {
      try {
        checkVoucherActivation({ ...valid, walletTo });
      } catch (error) {
        expect(PurseError.is(error) && error.field).toBe("walletTo");
      }
    }
    expect.assertions(2);
  });

  // Each case breaks two rules; the one reported is the earlier in the documented order.
  const blockedActivator = { ...valid.activator, blocked: true };
  it.each<[string, ActivationFacts, string]>([
    [
      "the switch before a blocked activator",
      { ...valid, activationEnabled: false, activator: blockedActivator },
      "VOUCHER_ACTIVATION_DISABLED",
    ],
    [
      "the switch before a missing voucher",
      { ...valid, activationEnabled: false, voucher: null },
      "VOUCHER_ACTIVATION_DISABLED",
    ],
    [
      "a blocked activator before a missing voucher",
      { ...valid, activator: blockedActivator, voucher: null },
      "USER_BLOCKED",
    ],
    [
      "a blocked activator before a wrong code",
      { ...valid, activator: blockedActivator, voucher: { ...voucher, codeMatches: false } },
      "USER_BLOCKED",
    ],
    [
      "a wrong code before a closed voucher",
      { ...valid, voucher: { ...voucher, codeMatches: false, status: VoucherStatus.CLOSED } },
      "VOUCHER_INVALID",
    ],
    [
      "a blocked creator before a closed voucher",
      { ...valid, voucher: { ...voucher, creatorBlocked: true, status: VoucherStatus.ACTIVATED } },
      "VOUCHER_INVALID",
    ],
    [
      "a closed voucher before an unpaid one",
      { ...valid, voucher: { ...voucher, status: VoucherStatus.CLOSED, transactionStatus: 1 } },
      "VOUCHER_CLOSED",
    ],
    [
      "expiry before the type rule",
      { ...valid, voucher: { ...voucher, expiredAt: now, type: VoucherType.MERCHANT_PURCHASED } },
      "VOUCHER_CLOSED",
    ],
    [
      "expiry before a missing wallet",
      { ...valid, voucher: { ...voucher, expiredAt: now }, walletTo: null },
      "VOUCHER_CLOSED",
    ],
    [
      "the type rule before a non-USD voucher",
      { ...valid, voucher: { ...voucher, type: VoucherType.MERCHANT_PURCHASED, currencyCode: "EUR" } },
      "VOUCHER_INVALID",
    ],
    [
      "a voucher rule before a missing wallet",
      { ...valid, voucher: { ...voucher, transactionStatus: 1 }, walletTo: null },
      "VOUCHER_INVALID",
    ],
    [
      "ownership before currency",
      { ...valid, walletTo: { userId: 9, status: "ACTIVE", currencyCode: "EUR" } },
      "WALLET_TO_NOT_EXISTS",
    ],
    [
      "an inactive wallet before its currency",
      { ...valid, walletTo: { userId: 1, status: "NEW", currencyCode: "EUR" } },
      "WALLET_TO_NOT_EXISTS",
    ],
  ])("reports %s", (_case, facts, code) => {
    expect(codeOf(facts)).toBe(code);
  });
});

describe("checkVoucherRedeemable", () => {
  it("runs every voucher rule without a wallet, as the info call does", () => {
    const { walletTo: _, ...withoutWallet } = valid;
    expect(outcome(() => checkVoucherRedeemable(withoutWallet))).toBe("ok");
    expect(
      outcome(() => checkVoucherRedeemable({ ...withoutWallet, voucher: { ...voucher, status: 1 } })),
    ).toBe("VOUCHER_CLOSED: Voucher closed");
    expect(outcome(() => checkVoucherRedeemable({ ...withoutWallet, activator: partner }))).toBe(
      "VOUCHER_INVALID: Voucher invalid",
    );
  });
});

describe("checkActivationTarget", () => {
  it("checks only the wallet: an active USD wallet of the activator", () => {
    expect(outcome(() => checkActivationTarget(valid))).toBe("ok");
    expect(
      outcome(() => checkActivationTarget({ ...valid, activator: { ...valid.activator, userId: 2 } })),
    ).toBe("WALLET_TO_NOT_EXISTS: Wallet to not exists");
  });
});

describe("activatableType", () => {
  it("pairs each role with the other role's vouchers", () => {
    expect(activatableType("merchant")).toBe(VoucherType.PARTNER_PURCHASED);
    expect(activatableType("partner")).toBe(VoucherType.MERCHANT_PURCHASED);
  });
});
