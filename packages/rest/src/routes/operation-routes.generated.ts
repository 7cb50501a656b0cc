// Written by `npm run lists` (scripts/operation-lists.ts) from every `*.route.ts` route contract: do not edit.

import type { RestRoute } from "./operation-route.ts";
import { listCurrenciesRoute } from "./list-currencies.route.ts";
import { showCurrencyRoute } from "./show-currency.route.ts";
import { listRatesRoute } from "./list-rates.route.ts";
import { createCheckoutRoute } from "./create-checkout.route.ts";
import { showCheckoutRoute } from "./show-checkout.route.ts";
import { payCheckoutRoute } from "./pay-checkout.route.ts";
import { refundCheckoutRoute } from "./refund-checkout.route.ts";
import { showTransactionRoute } from "./show-transaction.route.ts";
import { transferFundsRoute } from "./transfer-funds.route.ts";
import { listTransactionHistoryRoute } from "./list-transaction-history.route.ts";
import { showProfileRoute } from "./show-profile.route.ts";
import { listVouchersRoute } from "./list-vouchers.route.ts";
import { confirmVoucherActivationRoute } from "./confirm-voucher-activation.route.ts";
import { getVoucherInfoRoute } from "./get-voucher-info.route.ts";
import { buyVoucherRoute } from "./buy-voucher.route.ts";
import { checkWalletsExistRoute } from "./check-wallets-exist.route.ts";
import { listWalletsRoute } from "./list-wallets.route.ts";
import { searchWalletRoute } from "./search-wallet.route.ts";

/**
 * Every route of an engine operation, by name and in the order of their paths: `build-rest-api.ts`
 * registers each in this order (the OpenAPI document's paths and components follow it).
 */
export const operationRoutes = {
  listCurrencies: listCurrenciesRoute,
  showCurrency: showCurrencyRoute,
  listRates: listRatesRoute,
  createCheckout: createCheckoutRoute,
  showCheckout: showCheckoutRoute,
  payCheckout: payCheckoutRoute,
  refundCheckout: refundCheckoutRoute,
  showTransaction: showTransactionRoute,
  transferFunds: transferFundsRoute,
  listTransactionHistory: listTransactionHistoryRoute,
  showProfile: showProfileRoute,
  listVouchers: listVouchersRoute,
  confirmVoucherActivation: confirmVoucherActivationRoute,
  getVoucherInfo: getVoucherInfoRoute,
  buyVoucher: buyVoucherRoute,
  checkWalletsExist: checkWalletsExistRoute,
  listWallets: listWalletsRoute,
  searchWallet: searchWalletRoute,
} as const satisfies Readonly<Record<string, RestRoute>>;
