import { operatorCreditOperation } from "../admin/operator-credit.operation.ts";
import { operatorPayoutOperation } from "../admin/operator-payout.operation.ts";
import { statementOperation } from "../admin/statement.operation.ts";
import { transactionReversalOperation } from "../admin/transaction-reversal.operation.ts";
import { checkoutCreateOperation } from "../checkout/checkout-create.operation.ts";
import { checkoutListOperation } from "../checkout/checkout-list.operation.ts";
import { checkoutPayOperation } from "../checkout/checkout-pay.operation.ts";
import { refundOperation } from "../checkout/refund.operation.ts";
import { currencyListOperation } from "../currency/currency-list.operation.ts";
import { currencyShowOperation } from "../currency/currency-show.operation.ts";
import { rateListOperation } from "../currency/rate-list.operation.ts";
import {
  advanceTestClockOperation,
  createTestCredentialsOperation,
  testClockOperation,
  testFundOperation,
} from "../test-mode/test-mode.operation.ts";
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
import {
  webhookEndpointCreateOperation,
  webhookEndpointDeleteOperation,
  webhookEndpointListOperation,
  webhookEndpointRotateOperation,
  webhookEndpointUpdateOperation,
} from "../webhooks/operations/webhook-endpoints.operation.ts";
import {
  webhookAttemptListOperation,
  webhookEventListOperation,
  webhookReplayOperation,
  webhookTestEventOperation,
} from "../webhooks/operations/webhook-events.operation.ts";

/**
 * The API's operations by name, declared once for every door: GraphQL mounts each under its
 * binding's names, tRPC publishes each under this name (packages/trpc/src/router.ts derives its
 * router from this record), REST publishes those it has a route contract for
 * (packages/rest/src/routes/*.route.ts). A new operation is one line here.
 */
export const operations = {
  checkout: checkoutCreateOperation,
  transfer: transferOperation,
  buyVoucher: voucherPurchaseOperation,
  vouchers: voucherListOperation,
  wallets: walletListOperation,
  currencies: currencyListOperation,
  currency: currencyShowOperation,
  rates: rateListOperation,
  profile: profileShowOperation,
  wallet: walletShowOperation,
  me: meShowOperation,
  transaction: transactionShowOperation,
  activateVoucher: voucherActivationOperation,
  walletsExist: walletsExistOperation,
  walletSearch: walletSearchOperation,
  voucher: voucherInfoOperation,
  transactions: transactionSearchOperation,
  balanceHistory: balanceHistoryOperation,
  statement: statementOperation,
  operatorCredit: operatorCreditOperation,
  operatorPayout: operatorPayoutOperation,
  reverseTransaction: transactionReversalOperation,
  checkouts: checkoutListOperation,
  refund: refundOperation,
  webhookEndpoints: webhookEndpointListOperation,
  createWebhookEndpoint: webhookEndpointCreateOperation,
  updateWebhookEndpoint: webhookEndpointUpdateOperation,
  deleteWebhookEndpoint: webhookEndpointDeleteOperation,
  rotateWebhookEndpointSecret: webhookEndpointRotateOperation,
  webhookEvents: webhookEventListOperation,
  webhookDeliveryAttempts: webhookAttemptListOperation,
  replayWebhookEvents: webhookReplayOperation,
  sendTestWebhookEvent: webhookTestEventOperation,
  testFund: testFundOperation,
  advanceTestClock: advanceTestClockOperation,
  testClock: testClockOperation,
} as const;

/**
 * The dashboard's own, which only its session cookie may call (`sessionOnly`): GraphQL mounts
 * them, tRPC and REST never publish them.
 */
export const sessionOperations = {
  createTestCredentials: createTestCredentialsOperation,
} as const;

/**
 * Each declaration by its own name: REST's route contracts name the ones they publish, among them
 * the two only REST publishes (`transactionHistoryOperation`, the page-numbered history the
 * cursor-paged `transactions` serves elsewhere; `checkoutPayOperation`, the hosted page's call).
 */
export {
  advanceTestClockOperation,
  balanceHistoryOperation,
  checkoutCreateOperation,
  checkoutListOperation,
  checkoutPayOperation,
  createTestCredentialsOperation,
  currencyListOperation,
  currencyShowOperation,
  meShowOperation,
  operatorCreditOperation,
  operatorPayoutOperation,
  profileShowOperation,
  rateListOperation,
  refundOperation,
  statementOperation,
  testClockOperation,
  testFundOperation,
  transactionHistoryOperation,
  transactionReversalOperation,
  transactionSearchOperation,
  transactionShowOperation,
  transferOperation,
  voucherActivationOperation,
  voucherInfoOperation,
  voucherListOperation,
  voucherPurchaseOperation,
  walletListOperation,
  walletSearchOperation,
  walletShowOperation,
  walletsExistOperation,
  webhookAttemptListOperation,
  webhookEndpointCreateOperation,
  webhookEndpointDeleteOperation,
  webhookEndpointListOperation,
  webhookEndpointRotateOperation,
  webhookEndpointUpdateOperation,
  webhookEventListOperation,
  webhookReplayOperation,
  webhookTestEventOperation,
};
