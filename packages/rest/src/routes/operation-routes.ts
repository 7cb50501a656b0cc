import { buyVoucherRoute } from "./buy-voucher.route.ts";
import { checkWalletsExistRoute } from "./check-wallets-exist.route.ts";
import { confirmVoucherActivationRoute } from "./confirm-voucher-activation.route.ts";
import { createCheckoutRoute } from "./create-checkout.route.ts";
import { getVoucherInfoRoute } from "./get-voucher-info.route.ts";
import { listCurrenciesRoute } from "./list-currencies.route.ts";
import { listRatesRoute } from "./list-rates.route.ts";
import { listTransactionHistoryRoute } from "./list-transaction-history.route.ts";
import { listVouchersRoute } from "./list-vouchers.route.ts";
import { listWalletsRoute } from "./list-wallets.route.ts";
import type { RestRoute } from "./operation-route.ts";
import { payCheckoutRoute } from "./pay-checkout.route.ts";
import { refundCheckoutRoute } from "./refund-checkout.route.ts";
import { searchWalletRoute } from "./search-wallet.route.ts";
import { showCurrencyRoute } from "./show-currency.route.ts";
import { showProfileRoute } from "./show-profile.route.ts";
import { showTransactionRoute } from "./show-transaction.route.ts";
import { transferFundsRoute } from "./transfer-funds.route.ts";

/**
 * Every route of an engine operation, by name: `build-rest-api.ts` registers each, in this order
 * (the OpenAPI document's paths and components follow it), and the document's request body
 * examples are theirs (`example`). A new route is one line here.
 */
export const operationRoutes = {
  createCheckout: createCheckoutRoute,
  payCheckout: payCheckoutRoute,
  transferFunds: transferFundsRoute,
  confirmVoucherActivation: confirmVoucherActivationRoute,
  getVoucherInfo: getVoucherInfoRoute,
  buyVoucher: buyVoucherRoute,
  listVouchers: listVouchersRoute,
  listTransactionHistory: listTransactionHistoryRoute,
  showTransaction: showTransactionRoute,
  listWallets: listWalletsRoute,
  checkWalletsExist: checkWalletsExistRoute,
  searchWallet: searchWalletRoute,
  listRates: listRatesRoute,
  listCurrencies: listCurrenciesRoute,
  showCurrency: showCurrencyRoute,
  showProfile: showProfileRoute,
  refundCheckout: refundCheckoutRoute,
} as const satisfies Readonly<Record<string, RestRoute>>;
