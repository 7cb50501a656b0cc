import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { type ActivationFacts, checkVoucherActivation, shouldCloseVoucher } from "./voucher-rules.ts";

const now = new Date("2026-06-01T12:00:00Z");
const valid: ActivationFacts = {
  activationEnabled: true,
  voucher: {
    codeMatches: true,
    status: 0,
    type: 1,
    expiredAt: new Date("2030-01-01T00:00:00Z"),
    creatorBlocked: false,
    transactionStatus: 3,
    currencyCode: "USD",
    amountMinor: 5000n,
  },
  activator: { userId: 1, role: "merchant", blocked: false },
  walletTo: { userId: 1, status: "ACTIVE", currencyCode: "USD" },
  now,
};

function outcome(facts: ActivationFacts): string {
  try {
    checkVoucherActivation(facts);
    return "ok";
  } catch (error) {
    return PurseError.is(error) ? error.message : "unexpected";
  }
}

const voucher = valid.voucher as NonNullable<ActivationFacts["voucher"]>;

describe("checkVoucherActivation", () => {
  it("lets a merchant activate a partner's pending, paid, unexpired USD voucher into an own USD wallet", () => {
    expect(outcome(valid)).toBe("ok");
    expect(
      outcome({
        ...valid,
        activator: { userId: 1, role: "partner", blocked: false },
        voucher: { ...voucher, type: 2 },
      }),
    ).toBe("ok");
  });
  it.each<[string, ActivationFacts, string]>([
    ["activation switched off", { ...valid, activationEnabled: false }, "Voucher activation disabled"],
    ["unknown number", { ...valid, voucher: null }, "Voucher invalid"],
    ["wrong code", { ...valid, voucher: { ...voucher, codeMatches: false } }, "Voucher invalid"],
    [
      "activator blocked",
      { ...valid, activator: { userId: 1, role: "merchant", blocked: true } },
      "User is blocked",
    ],
    ["creator blocked", { ...valid, voucher: { ...voucher, creatorBlocked: true } }, "Voucher invalid"],
    ["already activated", { ...valid, voucher: { ...voucher, status: 1 } }, "Voucher closed"],
    ["closed", { ...valid, voucher: { ...voucher, status: 2 } }, "Voucher closed"],
    ["expired this very second", { ...valid, voucher: { ...voucher, expiredAt: now } }, "Voucher closed"],
    [
      "purchase still pending",
      { ...valid, voucher: { ...voucher, transactionStatus: 1 } },
      "Voucher invalid",
    ],
    [
      "merchant with a merchant-bought voucher",
      { ...valid, voucher: { ...voucher, type: 2 } },
      "Voucher invalid",
    ],
    [
      "partner with a partner-bought voucher",
      { ...valid, activator: { userId: 1, role: "partner", blocked: false } },
      "Voucher invalid",
    ],
    ["no such wallet", { ...valid, walletTo: null }, "Wallet to not exists"],
    [
      "someone else's wallet",
      { ...valid, walletTo: { userId: 9, status: "ACTIVE", currencyCode: "USD" } },
      "Wallet to not exists",
    ],
    [
      "a NEW wallet",
      { ...valid, walletTo: { userId: 1, status: "NEW", currencyCode: "USD" } },
      "Wallet to not exists",
    ],
    [
      "a deleted wallet",
      { ...valid, walletTo: { userId: 1, status: "DELETED", currencyCode: "USD" } },
      "Wallet to not exists",
    ],
    [
      "a EUR wallet",
      { ...valid, walletTo: { userId: 1, status: "ACTIVE", currencyCode: "EUR" } },
      "Only USD wallet allowed",
    ],
  ])("refuses when %s", (_case, facts, message) => {
    expect(outcome(facts)).toBe(message);
  });
  it("checks in the spec's order: disabled beats everything, closed beats type", () => {
    expect(outcome({ ...valid, activationEnabled: false, voucher: null })).toBe(
      "Voucher activation disabled",
    );
    expect(outcome({ ...valid, voucher: { ...voucher, status: 1, type: 2 } })).toBe("Voucher closed");
  });
});

describe("shouldCloseVoucher", () => {
  it("closes pending vouchers past expiry only", () => {
    const past = new Date("2026-01-01T00:00:00Z");
    expect(shouldCloseVoucher({ status: 0, expiredAt: past }, now)).toBe(true);
    expect(shouldCloseVoucher({ status: 1, expiredAt: past }, now)).toBe(false);
    expect(shouldCloseVoucher({ status: 0, expiredAt: new Date("2027-01-01T00:00:00Z") }, now)).toBe(false);
  });
});
