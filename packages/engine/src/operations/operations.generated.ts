// Written by `npm run lists` (scripts/operation-lists.ts) from every `*.operation.ts` declaration: do not edit.

import { operatorCreditOperation } from "../admin/operator-credit.operation.ts";
import { operatorPayoutOperation } from "../admin/operator-payout.operation.ts";
import { statementOperation } from "../admin/statement.operation.ts";
import { transactionReversalOperation } from "../admin/transaction-reversal.operation.ts";
import { checkoutCreateOperation } from "../checkout/checkout-create.operation.ts";
import { checkoutListOperation } from "../checkout/checkout-list.operation.ts";
import { checkoutPayOperation } from "../checkout/checkout-pay.operation.ts";
import { checkoutShowOperation } from "../checkout/checkout-show.operation.ts";
import { refundOperation } from "../checkout/refund.operation.ts";
import { currencyListOperation } from "../currency/currency-list.operation.ts";
import { currencyShowOperation } from "../currency/currency-show.operation.ts";
import { rateListOperation } from "../currency/rate-list.operation.ts";
import { advanceTestClockOperation, createTestCredentialsOperation, testClockOperation, testFundOperation } from "../test-mode/test-mode.operation.ts";
import { transactionHistoryOperation } from "../transactions/transaction-history.operation.ts";
import { transactionSearchOperation } from "../transactions/transaction-search.operation.ts";
import { transactionShowOperation } from "../transactions/transaction-show.operation.ts";
import { transferOperation } from "../transfer/transfer.operation.ts";
import { meShowOperation } from "../user/me-show.operation.ts";
import { profileShowOperation } from "../user/profile-show.operation.ts";
import { voucherActivationOperation } from "../voucher/voucher-activation.operation.ts";
import { voucherInfoOperation } from "../voucher/voucher-info.operation.ts";
import { voucherListOperation } from "../voucher/voucher-list.operation.ts";
import { voucherPurchaseOperation } from "../voucher/voucher-purchase.operation.ts";
import { balanceHistoryOperation } from "../wallet/balance-history.operation.ts";
import { walletListOperation } from "../wallet/wallet-list.operation.ts";
import { walletSearchOperation } from "../wallet/wallet-search.operation.ts";
import { walletShowOperation } from "../wallet/wallet-show.operation.ts";
import { walletsExistOperation } from "../wallet/wallets-exist.operation.ts";
import { webhookEndpointCreateOperation, webhookEndpointDeleteOperation, webhookEndpointListOperation, webhookEndpointRotateOperation, webhookEndpointUpdateOperation } from "../webhooks/operations/webhook-endpoints.operation.ts";
import { webhookAttemptListOperation, webhookEventListOperation, webhookReplayOperation, webhookTestEventOperation } from "../webhooks/operations/webhook-events.operation.ts";

/**
 * The API's operations by name, declared once for every door: GraphQL mounts each under this name
 * (or its binding's, packages/graphql/src/schema/operation-bindings.ts), tRPC publishes each as
 * the procedure of this name, REST those it has a route contract for (packages/rest/src/routes).
 */
export const operations = {
  activateVoucher: voucherActivationOperation,
  advanceTestClock: advanceTestClockOperation,
  balanceHistory: balanceHistoryOperation,
  buyVoucher: voucherPurchaseOperation,
  checkout: checkoutCreateOperation,
  checkoutByPaymentId: checkoutShowOperation,
  checkouts: checkoutListOperation,
  createWebhookEndpoint: webhookEndpointCreateOperation,
  currencies: currencyListOperation,
  currency: currencyShowOperation,
  deleteWebhookEndpoint: webhookEndpointDeleteOperation,
  me: meShowOperation,
  operatorCredit: operatorCreditOperation,
  operatorPayout: operatorPayoutOperation,
  profile: profileShowOperation,
  rates: rateListOperation,
  refund: refundOperation,
  replayWebhookEvents: webhookReplayOperation,
  reverseTransaction: transactionReversalOperation,
  rotateWebhookEndpointSecret: webhookEndpointRotateOperation,
  sendTestWebhookEvent: webhookTestEventOperation,
  statement: statementOperation,
  testClock: testClockOperation,
  testFund: testFundOperation,
  transaction: transactionShowOperation,
  transactions: transactionSearchOperation,
  transfer: transferOperation,
  updateWebhookEndpoint: webhookEndpointUpdateOperation,
  voucher: voucherInfoOperation,
  vouchers: voucherListOperation,
  wallet: walletShowOperation,
  wallets: walletListOperation,
  walletSearch: walletSearchOperation,
  walletsExist: walletsExistOperation,
  webhookDeliveryAttempts: webhookAttemptListOperation,
  webhookEndpoints: webhookEndpointListOperation,
  webhookEvents: webhookEventListOperation,
} as const;

/** The dashboard's own, which only its session cookie may call (`sessionOnly`): GraphQL only. */
export const sessionOperations = {
  createTestCredentials: createTestCredentialsOperation,
} as const;

/** Each declaration by its export name, for REST's route contracts (the REST-only ones among them). */
export { operatorCreditOperation, operatorPayoutOperation, statementOperation, transactionReversalOperation, checkoutCreateOperation, checkoutListOperation, checkoutPayOperation, checkoutShowOperation, refundOperation, currencyListOperation, currencyShowOperation, rateListOperation, advanceTestClockOperation, createTestCredentialsOperation, testClockOperation, testFundOperation, transactionHistoryOperation, transactionSearchOperation, transactionShowOperation, transferOperation, meShowOperation, profileShowOperation, voucherActivationOperation, voucherInfoOperation, voucherListOperation, voucherPurchaseOperation, balanceHistoryOperation, walletListOperation, walletSearchOperation, walletShowOperation, walletsExistOperation, webhookEndpointCreateOperation, webhookEndpointDeleteOperation, webhookEndpointListOperation, webhookEndpointRotateOperation, webhookEndpointUpdateOperation, webhookAttemptListOperation, webhookEventListOperation, webhookReplayOperation, webhookTestEventOperation };
