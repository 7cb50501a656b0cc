// The public face of the engine: adapters and the composition root import only from here.

export * from "./admin/index.ts";
export { type AccessScope, holdsScope, requireScope } from "./auth/access-scope.ts";
export type { Actor, Role } from "./auth/actor.ts";
export { authenticate, requireAccess } from "./auth/authenticate.ts";
export {
  csrfHeaderName,
  type DashboardSession,
  type SignInInput,
  sessionCookieName,
  signIn,
  signOut,
} from "./auth/dashboard-session.ts";
export { HashQueue } from "./auth/hash-queue.ts";
export {
  apiScope,
  type IssuedToken,
  issueToken,
  requestToken,
  revokeToken,
  type TokenRequest,
} from "./auth/issue-token.ts";
export {
  bearerToken,
  type CredentialHeaders,
  type CsrfRefusal,
  csrfRefusalMessages,
  type RequestCredential,
  requestCredential,
} from "./auth/request-credential.ts";
export { revokeClientTokens, rotateClientSecret, rotateFormToken } from "./auth/rotate-client-credentials.ts";
export {
  announceRevocation,
  inProcessRevocationChannel,
  type RevocationChannel,
  TokenCache,
  type TokenRevocation,
} from "./auth/token-cache.ts";
export { VerifiedSecrets } from "./auth/verified-secrets.ts";
export {
  altchaCaptcha,
  type Captcha,
  disabledCaptcha,
  MemorySpentCaptchas,
  type SpentCaptchas,
} from "./captcha/index.ts";
export { checkoutContract, checkoutLinkContract } from "./checkout/checkout.contract.ts";
export { type CheckoutPageState, type CheckoutPageView, getCheckoutPage } from "./checkout/checkout-page.ts";
export { checkoutPayOperation } from "./checkout/checkout-pay.operation.ts";
export { type CheckoutInput, type CreatedCheckout, createCheckout } from "./checkout/create-checkout.ts";
export {
  failAllExpiredCheckouts,
  failExpiredCheckouts,
  type SweepDependencies,
} from "./checkout/fail-expired-checkouts.ts";
export {
  type CheckoutListFilter,
  type CheckoutListItem,
  listCheckouts,
  listCheckoutsOfLogin,
  maxCheckoutListLimit,
} from "./checkout/list-checkouts.ts";
export { type PayCheckoutInput, type PayCheckoutResult, payCheckout } from "./checkout/pay-checkout.ts";
export { refundSucceeded } from "./checkout/refund-checkout.ts";
export {
  currencyListContract,
  currencyListingContract,
  publishedCurrencyListing,
} from "./currency/currency-list.contract.ts";
export type { CurrencyRecord, Operation } from "./currency/currency-record.ts";
export type { CurrencyView } from "./currency/currency-view.ts";
export { type CurrencyListing, listCurrencies } from "./currency/list-currencies.ts";
export { loadCurrencies } from "./currency/load-currencies.ts";
export {
  type AnyOperation,
  type CallContext,
  defineOperation,
  type InputContract,
  inputObject,
  type OperationDeclaration,
  type OperationInput,
  type OperationScope,
  scopesOf,
} from "./declaration/declare-operation.ts";
export { engineOfPublicCall, parseContract, runOperation } from "./declaration/run-operation.ts";
export {
  defaultEngineOptions,
  type EngineDependencies,
  type EngineOptions,
  type MovementBatches,
} from "./engine-dependencies.ts";
export * from "./errors/index.ts";
export {
  eventStream,
  inProcessEventBus,
  type TransactionEvent,
  type TransactionEventBus,
  UserListeners,
} from "./events/index.ts";
export { type Fixture, FixtureError } from "./fixture/index.ts";
export { hasBeenSeeded, type SeedSummary, seedFixture } from "./fixture/seed-fixture.ts";
export { amountText } from "./input/contract-fields.ts";
export { attachedCode, type ContractIssue, contractRefusal, ruleRefusal } from "./input/contract-refusal.ts";
export { inputBounds } from "./input/input-bounds.ts";
export { statementBound } from "./input/instant.ts";
export { idempotencyKeyOf } from "./input/text-fields.ts";
export { isWebUrl, maxWebUrlLength, optionalWebUrl, type WebUrlRules } from "./input/web-url.ts";
export { type RotationProgress, type RotationSummary, rotateSecretKey } from "./keys/rotate-secret-key.ts";
export {
  formTokenBinding,
  type SealedColumn,
  sealedColumns,
  webhookSecretBinding,
} from "./keys/sealed-columns.ts";
export {
  type DeploymentSecretBox,
  openSecretBox,
  type SealBinding,
  type SecretBox,
  secretBoxFromKey,
  secretBoxFromKeys,
} from "./keys/secret-keyring.ts";
export { type AuditCheck, type AuditReport, auditLedger } from "./ledger/audit-ledger.ts";
export { foldCounters } from "./ledger/fold-counters.ts";
export { defaultLeaveAt } from "./ledger/movement-queue.ts";
export { TransactionStatus, TransactionType } from "./ledger/transaction-codes.ts";
export { type BatchPath, movementBatchCounts } from "./ledger/wallet-memory.ts";
export { MemoryRouteLock, type RouteLock, routeLockKey } from "./locks/index.ts";
export {
  type EngineMetrics,
  type MovedFigures,
  noEngineMetrics,
  type RefusalReason,
  refusalReason,
} from "./metrics/index.ts";
export * from "./mode/index.ts";
export { maxAmountLength } from "./money/amount.ts";
export * from "./operations/operations.generated.ts";
export { csvLines, csvText } from "./output/csv.ts";
export { formatTimestamp } from "./output/timestamps.ts";
export { asPurseError } from "./persistence/as-purse-error.ts";
export {
  type CitusDistribution,
  type DistributionStep,
  distributeOnCitus,
} from "./persistence/citus-distribution.ts";
export {
  type Database,
  type DatabaseLocation,
  defaultPoolSize,
  MissingDatabaseError,
  openDatabase,
} from "./persistence/database.ts";
export { isDatabaseUnavailable } from "./persistence/database-unavailable.ts";
export { migrationsList } from "./persistence/migrations/index.ts";
export type { ReadRouting, ReadTarget, ReplicaStatus } from "./persistence/read-replica.ts";
export { violatedUnique } from "./persistence/sql.ts";
export * from "./rate-limit/index.ts";
export {
  defaultRetention,
  type PruneSummary,
  pruneTables,
  type Retention,
} from "./retention/prune-tables.ts";
export {
  checkoutSignature,
  type JsonForm,
  type SentAsNumber,
  type SignedValueKinds,
  verifyCheckoutSignature,
  verifyWebhookSignature,
  webhookSignature,
} from "./signature/index.ts";
export * from "./test-mode/index.ts";
export { eventsWhileAuthorized } from "./transactions/events-while-authorized.ts";
export { exportTransactions, transactionCsvHeader } from "./transactions/export-transactions.ts";
export type { HistoryInput, QueryValue } from "./transactions/history-filter.ts";
export { type HistoryItemView, type HistoryPage, listHistory } from "./transactions/list-history.ts";
export { transactionLookupContract } from "./transactions/transaction-lookup.contract.ts";
export { transactionSearchContract } from "./transactions/transaction-search.contract.ts";
export {
  searchTransactions,
  type TransactionNode,
  type TransactionPage,
  type TransactionSearch,
  type TransactionTotal,
} from "./transactions/transaction-search.ts";
export { type TransactionUpdate, transactionUpdate } from "./transactions/transaction-update.ts";
export * from "./transactions/wallet-statement.ts";
export { transferContract, transferResultContract } from "./transfer/transfer.contract.ts";
export { type TransferResult, transferFunds, transferSucceeded } from "./transfer/transfer-funds.ts";
export type { TransferInput } from "./transfer/transfer-request.ts";
export { profileContract } from "./user/profile.contract.ts";
export { showProfile, type UserProfileView } from "./user/show-profile.ts";
export {
  activateVoucher,
  type VoucherActivation,
  type VoucherActivationInput,
} from "./voucher/activate-voucher.ts";
export { type BuyVoucherInput, buyVoucher } from "./voucher/buy-voucher.ts";
export { closeExpiredVouchers } from "./voucher/close-expired-vouchers.ts";
export {
  listVouchers,
  maxVoucherPage,
  type VoucherPage,
  vouchersPerPage,
} from "./voucher/list-vouchers.ts";
export type { PurchasedVoucherView } from "./voucher/purchased-vouchers.ts";
export {
  voucherActivationContract,
  voucherActivationResultContract,
} from "./voucher/voucher-activation.contract.ts";
export {
  purchasedVoucherContract,
  voucherListContract,
  voucherPageContract,
} from "./voucher/voucher-list.contract.ts";
export { voucherPurchaseContract } from "./voucher/voucher-purchase.contract.ts";
export {
  type BalanceHistoryQuery,
  type BalancePoint,
  balanceHistory,
  maxBalanceHistoryDays,
} from "./wallet/balance-history.ts";
export { checkWalletsExist, searchWallet, type WalletPairView } from "./wallet/find-wallets.ts";
export { listWallets } from "./wallet/list-wallets.ts";
export { loadWalletSummaries, type WalletSummary } from "./wallet/load-wallet-summaries.ts";
export { walletContract, walletCurrencyContract, walletListContract } from "./wallet/wallet-list.contract.ts";
export type { WalletView } from "./wallet/wallet-view.ts";
export {
  actorForEndpoint,
  actorForLogin,
  createWebhookEndpoint,
  type DeliveryAttemptView,
  type DispatcherOptions,
  deleteWebhookEndpoint,
  type EventType,
  type EventView,
  eventDataSchemas,
  eventEnvelopeSchema,
  eventJsonSchemas,
  eventOutbox,
  eventSamples,
  eventTypes,
  isPublicAddress,
  listDeliveryAttempts,
  listEvents,
  listWebhookDeliveries,
  listWebhookEndpoints,
  nextRetryDelayMs,
  type PaymentNotification,
  raiseRefundSucceeded,
  replayEvents,
  resendWebhook,
  retryDelaysMs,
  rotateWebhookEndpointSecret,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhookEndpoint,
  verifyStandardWebhook,
  type WebhookDeliveryView,
  WebhookDispatcher,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
  type WebhookTransport,
} from "./webhooks/index.ts";
