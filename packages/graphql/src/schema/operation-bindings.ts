// GraphQL's names and shapes for the operations whose published schema differs from the default
// rule (operation-binding.ts: field = list name, type = that name capitalised). A new operation
// needs no line here; these keep what clients of the schema already read.
import type { operations, sessionOperations } from "@purse/engine";
import type { BindingOf } from "./operation-binding.ts";

type Declared = typeof operations & typeof sessionOperations;

/** Each operation's binding, typed against its own contracts: a path that does not exist does not compile. */
type Bindings = { readonly [Name in keyof Declared]?: BindingOf<Declared[Name]> };

// Operator verbs, test mode's and webhook endpoints' mutations take flat arguments, as published;
// an output contract another entry already names keeps that name (`operatorPayout`: `OperatorMovement`).
const flat = { arguments: "flat" } as const;

export const operationBindings = {
  checkout: { field: "createCheckout", input: "CheckoutInput", type: "CheckoutLink" },
  transfer: { type: "TransferResult" },
  buyVoucher: { type: "PurchasedVoucher" },
  vouchers: {
    type: "PurchasedVoucherPage",
    nested: { items: "PurchasedVoucher", meta: "PurchasedVoucherPageMeta" },
  },
  // The wallet keeps the door's batched currency loader.
  wallets: { type: "Wallet", nested: { currency: { shared: "Currency" } }, omit: ["userId"] },
  currencies: { type: "CurrencyListing" },
  rates: { type: "Rate" },
  profile: { type: "UserProfile", nulls: { documentUploaded: "Boolean", documentVerify: "Boolean" } },
  // Nullable as it always was (a refusal answers null beside the error); the enums are the door's
  // own, which the history shares; `currencyCode` as clients read it before `currency` came.
  transaction: {
    type: "TransactionDetail",
    nullable: true,
    nested: {
      currency: "TransactionDetailCurrency",
      processingPay: "ProcessingPay",
      refunds: "TransactionRefund",
      deliveries: "TransactionDelivery",
      "deliveries.attempts": "TransactionDeliveryAttempt",
    },
    enums: {
      type: "TransactionType",
      status: "TransactionStatus",
      "processingPay.status": "TransactionStatus",
    },
    lifted: { currencyCode: "currency.code" },
    descriptions: {
      status: "FAIL, PENDING or SUCCESS (a cancellation is FAIL; processingPay.status says CANCEL)",
      "currency.precession": "Decimal places (the specification's spelling)",
    },
  },
  activateVoucher: { type: "VoucherActivation", input: "VoucherActivationInput" },
  walletsExist: { type: "WalletPair", nested: { currency: "LookupCurrency" } },
  walletSearch: { type: "FoundWallet", nested: { currency: "LookupCurrency" } },
  voucher: { type: "VoucherInfo", errorUnion: true },
  transactions: {
    type: "TransactionConnection",
    // The node keeps the door's batched loaders (currency and wallets, one query per page).
    nested: { nodes: { shared: "Transaction" }, totals: "CurrencyTotal" },
    omit: ["totals.currencyId"],
    page: {
      size: "first",
      after: "afterId",
      cursor: "tx",
      enums: { type: "TransactionType", status: "TransactionStatus" },
    },
  },
  balanceHistory: { type: "BalancePoint" },
  statement: { nested: { lines: "StatementLine" }, errorUnion: true },
  operatorCredit: { type: "OperatorMovement", ...flat },
  operatorPayout: flat,
  reverseTransaction: flat,
  checkouts: { type: "Checkout", enums: { status: "CheckoutStatus" } },
  refund: { field: "refundCheckout", input: "RefundCheckoutInput", enums: { status: "TransactionStatus" } },
  webhookEndpoints: { type: "WebhookEndpoint" },
  createWebhookEndpoint: { type: "WebhookEndpointWithSecret", ...flat },
  updateWebhookEndpoint: flat,
  rotateWebhookEndpointSecret: flat,
  deleteWebhookEndpoint: { type: "WebhookEndpointDeleted", ...flat },
  webhookEvents: { type: "WebhookEvent" },
  webhookDeliveryAttempts: { type: "WebhookDeliveryAttempt" },
  replayWebhookEvents: { type: "WebhookReplay", ...flat },
  sendTestWebhookEvent: { type: "WebhookTestEvent", ...flat },
  testFund: { type: "TestFunding", ...flat },
  advanceTestClock: flat,
  testClock: { type: "TestClock", errorUnion: true },
  createTestCredentials: { type: "TestCredentials", nested: { wallets: "TestCredentialsWallet" }, ...flat },
} as const satisfies Bindings;
