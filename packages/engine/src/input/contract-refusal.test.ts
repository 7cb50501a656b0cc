import { describe, expect, it } from "vitest";
import { checkoutContract, checkoutPaymentContract } from "../checkout/checkout.contract.ts";
import { parseContract } from "../declaration/run-operation.ts";
import { PurseError } from "../errors/index.ts";
import { transactionSearchPageContract } from "../transactions/transaction-page.contract.ts";
import { transferContract } from "../transfer/transfer.contract.ts";
import { voucherActivationContract, voucherInfoContract } from "../voucher/voucher-activation.contract.ts";
import { voucherPurchaseContract } from "../voucher/voucher-purchase.contract.ts";
import { ruleRefusal } from "./contract-refusal.ts";

/** What a contract answers for `sent`: the refusal's code, field and the specification's text. */
function refusal(contract: Parameters<typeof parseContract>[0], sent: unknown) {
  try {
    parseContract(contract, sent);
  } catch (error) {
    if (PurseError.is(error)) return { code: error.code, field: error.field, message: error.message };
    throw error;
  }
  return null;
}

const transfer = { walletFrom: "U100000010", walletTo: "U100000020", amount: "10.50" };
const checkout = {
  walletTo: "U100000010",
  walletFrom: "U100000020",
  amount: "3.00",
  id: "c-1",
  userInfo: "p",
};

describe("a contract is the operation's whole validation", () => {
  it.each([
    [{ walletFrom: "" }, "BLANK", "walletFrom", "This value should not be blank."],
    [{ walletTo: "   " }, "BLANK", "walletTo", "This value should not be blank."],
    [{ walletTo: undefined }, "BLANK", "walletTo", "This value should not be blank."],
    [{ walletFrom: null }, "BLANK", "walletFrom", "This value should not be blank."],
    [{ amount: " " }, "BLANK", "amount", "This value should not be blank."],
    [{ amount: "ten" }, "NOT_NUMERIC", "amount", "This value should be of type numeric."],
    [{ amount: "0" }, "NOT_POSITIVE", "amount", "This value should be positive."],
    [{ amount: "-5" }, "NOT_POSITIVE", "amount", "This value should be positive."],
    [{ walletTo: "U1\u0000" }, "INVALID_VALUE", "walletTo", "This value is not valid."],
    [{ description: "a\u0000" }, "INVALID_VALUE", "description", "This value is not valid."],
    [
      { paymentId: "x".repeat(65) },
      "TOO_LONG",
      "paymentId",
      "This value is too long. It should have 64 characters or less.",
    ],
    [{ walletFrom: 10 }, "INVALID_VALUE", "walletFrom", "This value is not valid."],
  ])("refuses a transfer with %o: %s on %s", (change, code, field, message) => {
    expect(refusal(transferContract, { ...transfer, ...change })).toEqual({ code, field, message });
  });

  it("reads a transfer into what the use case needs: trimmed, the amount in its normal form", () => {
    const read = parseContract(transferContract, {
      ...transfer,
      walletFrom: " U100000010 ",
      amount: "010.50",
      paymentId: "  ",
    });
    expect(read).toMatchObject({ walletFrom: "U100000010", amount: "10.5", paymentId: "" });
  });

  it("answers zod's own failure before a rule, as a door checking the shape first does", () => {
    const both = { ...transfer, walletFrom: "", walletTo: "U".repeat(33) };
    expect(refusal(transferContract, both)).toMatchObject({ code: "TOO_LONG", field: "walletTo" });
    // The doors that answer a malformed input in their own shape (tRPC, GraphQL) keep it.
    const parsed = transferContract.safeParse(both);
    expect(parsed.success ? [] : ruleRefusal(parsed.error.issues)).toBeNull();
    const blankOnly = transferContract.safeParse({ ...transfer, walletFrom: "" });
    expect(blankOnly.success ? null : ruleRefusal(blankOnly.error.issues)?.code).toBe("BLANK");
  });

  it("refuses a checkout's blank texts and amounts, and keeps what the signature covers as sent", () => {
    expect(refusal(checkoutContract, { ...checkout, userInfo: " " })).toMatchObject({
      code: "BLANK",
      field: "userInfo",
    });
    expect(refusal(checkoutContract, { ...checkout, id: "" })).toMatchObject({ code: "BLANK", field: "id" });
    expect(refusal(checkoutContract, { ...checkout, amount: -1 })).toMatchObject({
      code: "NOT_POSITIVE",
      field: "amount",
    });
    expect(refusal(checkoutContract, { ...checkout, amount: "1e3" })).toMatchObject({ code: "NOT_NUMERIC" });
    expect(refusal(checkoutContract, { ...checkout, signature: "\u0000" })).toMatchObject({
      code: "INVALID_VALUE",
      field: "signature",
    });
    const read = parseContract(checkoutContract, { ...checkout, walletTo: " U100000010", amount: 3 });
    expect(read).toMatchObject({ walletTo: " U100000010", amount: 3 });
  });

  it("refuses the hosted page's call without a login, and an action it does not know", () => {
    const pay = { token: "chk_1", login: "acme", password: "secret", action: "pay" };
    expect(refusal(checkoutPaymentContract, { ...pay, login: "" })).toMatchObject({
      code: "BLANK",
      field: "login",
    });
    expect(refusal(checkoutPaymentContract, { ...pay, action: "refund" })).toMatchObject({
      code: "INVALID_VALUE",
      field: "action",
    });
  });

  it("refuses a voucher purchase, activation and check on the contract's own field names", () => {
    expect(refusal(voucherPurchaseContract, { walletFrom: "U100000010", amount: "" })).toMatchObject({
      code: "BLANK",
      field: "amount",
    });
    const activation = { voucherNumber: "V-1", voucherCode: "1234", walletTo: "U100000010" };
    expect(refusal(voucherActivationContract, { ...activation, voucherCode: " " })).toMatchObject({
      code: "BLANK",
      field: "voucherCode",
    });
    expect(refusal(voucherInfoContract, { number: "V-1" })).toMatchObject({ code: "BLANK", field: "code" });
  });

  it("refuses a page size out of its range with both bounds in the text", () => {
    expect(refusal(transactionSearchPageContract, { first: 0 })).toEqual({
      code: "OUT_OF_RANGE",
      field: "first",
      message: "This value should be between 1 and 100.",
    });
    expect(refusal(transactionSearchPageContract, { first: "ten" })).toMatchObject({ code: "NOT_NUMERIC" });
  });

  it("refuses an oversized value by its bound alone: no later rule reads, trims or parses it", () => {
    // Not a number either: a rule that ran would add its own refusal after reading every digit.
    const huge = `1.${"0".repeat(100_000)}x`;
    const issuesOf = (contract: Parameters<typeof parseContract>[0], sent: unknown) =>
      contract.safeParse(sent).error?.issues.map((issue) => [issue.path.join("."), issue.code]);
    // One issue each: the bound's. Before, the amount's rules parsed the 100 001 digits too (and
    // said NOT_NUMERIC beside it), tens of milliseconds of one core per request.
    expect(issuesOf(transferContract, { ...transfer, amount: huge })).toEqual([["amount", "too_big"]]);
    expect(issuesOf(checkoutContract, { ...checkout, amount: huge })).toEqual([["amount", "too_big"]]);
    expect(issuesOf(transferContract, { ...transfer, description: ` ${"x".repeat(300)}\u0000` })).toEqual([
      ["description", "too_big"],
    ]);
    expect(refusal(transferContract, { ...transfer, amount: huge })).toMatchObject({
      code: "TOO_LONG",
      field: "amount",
    });
  });
});
