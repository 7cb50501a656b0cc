export { checkoutContract, checkoutLinkContract } from "./checkout.contract.ts";
export { amountText } from "./contract-fields.ts";
export {
  currencyListContract,
  currencyListingContract,
  publishedCurrencyListing,
} from "./currency-list.contract.ts";
export { inputBounds } from "./input-bounds.ts";
export {
  operatorMovementContract,
  operatorMovementResultContract,
  operatorReversalContract,
  statementContract,
  statementRequestContract,
} from "./operator.contract.ts";
export { profileContract } from "./profile.contract.ts";
export { transactionLookupContract } from "./transaction-lookup.contract.ts";
export { transactionSearchContract } from "./transaction-search.contract.ts";
export { transferContract, transferResultContract } from "./transfer.contract.ts";
export {
  voucherActivationContract,
  voucherActivationResultContract,
  voucherInfoContract,
} from "./voucher-activation.contract.ts";
export {
  purchasedVoucherContract,
  voucherListContract,
  voucherPageContract,
} from "./voucher-list.contract.ts";
export { voucherPurchaseContract } from "./voucher-purchase.contract.ts";
export { walletContract, walletCurrencyContract, walletListContract } from "./wallet-list.contract.ts";
