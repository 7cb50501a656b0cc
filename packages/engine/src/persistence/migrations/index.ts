import { Migration0001Ledger } from "./0001-ledger.ts";
import { Migration0002WebhookOutbox } from "./0002-webhook-outbox.ts";
import { Migration0003CurrencyRateTime } from "./0003-currency-rate-time.ts";
import { Migration0004VoucherCodeSealed } from "./0004-voucher-code-sealed.ts";
import { Migration0005LedgerHashChain } from "./0005-ledger-hash-chain.ts";
import { Migration0006CredentialOverlapAndPruning } from "./0006-credential-overlap-and-pruning.ts";
import { Migration0007VoucherActivationIndex } from "./0007-voucher-activation-index.ts";
import { Migration0008IdempotencyKeys } from "./0008-idempotency-keys.ts";
import { Migration0009HistoryCounts } from "./0009-history-counts.ts";
import { Migration0010Dashboard } from "./0010-dashboard.ts";
import { Migration0011WalletDays } from "./0011-wallet-days.ts";
import { Migration0012HistoryMonthCounts } from "./0012-history-month-counts.ts";
import { Migration0013HistoryAmountCounts } from "./0013-history-amount-counts.ts";
import { Migration0014HistoryAmountYearsAndLeaves } from "./0014-history-amount-years-and-leaves.ts";
import { Migration0015DropHistoryAmountCounts } from "./0015-drop-history-amount-counts.ts";
import { Migration0016Refunds } from "./0016-refunds.ts";
import { Migration0017WebhookEndpointsAndEvents } from "./0017-webhook-endpoints-and-events.ts";
import { Migration0018CheckoutLinkSealed } from "./0018-checkout-link-sealed.ts";
import { Migration0019TestMode } from "./0019-test-mode.ts";
import { Migration0020CounterDeltas } from "./0020-counter-deltas.ts";
import { Migration0021OwnerColumns } from "./0021-owner-columns.ts";
import { Migration0022NumberOwners } from "./0022-number-owners.ts";
import { Migration0023FoldCountersByOwner } from "./0023-fold-counters-by-owner.ts";
import { Migration0024DropPostingsWalletIndex } from "./0024-drop-postings-wallet-index.ts";
import { Migration0025OperatorKeys } from "./0025-operator-keys.ts";

/**
 * Migrations are listed, not discovered: MikroORM's folder discovery needs Node 22's `fs.globSync`,
 * and an explicit list also runs unchanged from source, from `dist` and in the embedded mode.
 */
export const migrationsList = [
  { name: "0001-ledger", class: Migration0001Ledger },
  { name: "0002-webhook-outbox", class: Migration0002WebhookOutbox },
  { name: "0003-currency-rate-time", class: Migration0003CurrencyRateTime },
  { name: "0004-voucher-code-sealed", class: Migration0004VoucherCodeSealed },
  { name: "0005-ledger-hash-chain", class: Migration0005LedgerHashChain },
  { name: "0006-credential-overlap-and-pruning", class: Migration0006CredentialOverlapAndPruning },
  { name: "0007-voucher-activation-index", class: Migration0007VoucherActivationIndex },
  { name: "0008-idempotency-keys", class: Migration0008IdempotencyKeys },
  { name: "0009-history-counts", class: Migration0009HistoryCounts },
  { name: "0010-dashboard", class: Migration0010Dashboard },
  { name: "0011-wallet-days", class: Migration0011WalletDays },
  { name: "0012-history-month-counts", class: Migration0012HistoryMonthCounts },
  { name: "0013-history-amount-counts", class: Migration0013HistoryAmountCounts },
  { name: "0014-history-amount-years-and-leaves", class: Migration0014HistoryAmountYearsAndLeaves },
  { name: "0015-drop-history-amount-counts", class: Migration0015DropHistoryAmountCounts },
  { name: "0016-refunds", class: Migration0016Refunds },
  { name: "0017-webhook-endpoints-and-events", class: Migration0017WebhookEndpointsAndEvents },
  { name: "0018-checkout-link-sealed", class: Migration0018CheckoutLinkSealed },
  { name: "0019-test-mode", class: Migration0019TestMode },
  { name: "0020-counter-deltas", class: Migration0020CounterDeltas },
  { name: "0021-owner-columns", class: Migration0021OwnerColumns },
  { name: "0022-number-owners", class: Migration0022NumberOwners },
  { name: "0023-fold-counters-by-owner", class: Migration0023FoldCountersByOwner },
  { name: "0024-drop-postings-wallet-index", class: Migration0024DropPostingsWalletIndex },
  { name: "0025-operator-keys", class: Migration0025OperatorKeys },
];
