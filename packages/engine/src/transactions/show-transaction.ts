import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { transactionStatusName, transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import {
  findTransactionDeliveries,
  type TransactionDeliveryRecord,
} from "../webhooks/transaction-deliveries-store.ts";
import type { QueryValue } from "./history-filter.ts";
import { type DetailRow, findTransactionDetail, refundRecords } from "./transaction-store.ts";

export interface TransactionDetailView {
  readonly id: number;
  readonly externalId: string;
  readonly amount: string;
  readonly commission: string;
  readonly type: "DEPOSIT" | "WITHDRAW" | "TRANSFER";
  /** The specification's three: a cancelled payment is FAIL here, and `processingPay` says cancelled. */
  readonly status: "FAIL" | "PENDING" | "SUCCESS";
  readonly currency: { readonly id: number; readonly code: string; readonly precession: number };
  readonly processingPay: {
    readonly paymentId: string;
    readonly signature: string;
    readonly transactionId: number;
    readonly walletFrom: string;
    readonly walletTo: string;
    readonly currencyTo: string;
    readonly currencyFrom: string;
    readonly amount: string;
    /** The payment's own status: CANCEL where the detail's says FAIL. */
    readonly status: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL";
    readonly cancel: boolean;
  };
  /** A refund's checkout transaction id; null for every other transaction. */
  readonly refundOf: number | null;
  /** What was refunded of a paid checkout (exact decimal); null for anything else. */
  readonly refunded: string | null;
  /** A paid checkout's refunds one by one, oldest first, for its owner only; null otherwise. */
  readonly refunds: TransactionRefundView[] | null;
  /** The webhooks the transaction sent its owner, oldest first, for its owner only; null otherwise. */
  readonly deliveries: TransactionDeliveryView[] | null;
}

export interface TransactionRefundView {
  readonly id: number;
  readonly amount: string;
  readonly createdAt: string;
}

export interface TransactionDeliveryView {
  readonly kind: "STATUS_URL" | "ENDPOINT";
  readonly messageId: string;
  readonly url: string;
  readonly eventType: string | null;
  readonly status: "pending" | "delivered" | "failed";
  readonly attempts: {
    readonly attempt: number;
    readonly attemptedAt: string;
    readonly statusCode: number | null;
    readonly error: string | null;
  }[];
}

/**
 * One transaction by internal `id` or by the caller's `external_id`. A transaction the caller
 * neither made nor holds a wallet in is `Not found`, exactly like one that does not exist.
 */
export async function showTransaction(
  deps: EngineDependencies,
  actor: Actor,
  query: { id?: QueryValue; externalId?: QueryValue },
): Promise<TransactionDetailView> {
  requireAccess(actor);
  const id = text(query.id);
  const externalId = refuseNul(text(query.externalId), "externalId");
  if (id === null && externalId === null) throw new PurseError("BLANK", "id");
  if (id !== null && !/^\d{1,15}$/.test(id)) throw new PurseError("NOT_FOUND");
  const found = await deps.db.fresh(async (em) => {
    const row = await findTransactionDetail(em, actor.userId, {
      id: id === null ? null : Number(id),
      externalId,
    });
    // Its webhooks for its owner only: one more statement, for the owner's lookups alone.
    const deliveries = row?.owned ? await findTransactionDeliveries(em, actor.userId, toId(row.id)) : null;
    return row ? { row, deliveries } : undefined;
  });
  if (!found) throw new PurseError("NOT_FOUND");
  return detailView(found.row, found.deliveries);
}

function text(value: QueryValue): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = String(value).trim();
  return trimmed === "" ? null : trimmed;
}

function detailView(row: DetailRow, deliveries: TransactionDeliveryRecord[] | null): TransactionDetailView {
  const precession = Number(row.precession);
  // The payment's own amount (what was asked), as its notification says; the detail's is what moved.
  const asked = formatMinor(toBigInt(row.amount_minor), precession);
  const amount = formatMinor(toBigInt(row.moved_minor), precession);
  const status = transactionStatusName(Number(row.status));
  const id = toId(row.id);
  return {
    id,
    externalId: row.external_id ?? "",
    amount,
    commission: formatMinor(toBigInt(row.commission_minor), precession),
    type: transactionTypeName(Number(row.type)),
    status: status === "CANCEL" ? "FAIL" : status,
    currency: { id: Number(row.currency_id), code: row.code, precession },
    processingPay: {
      paymentId: row.external_id ?? "",
      signature: row.signature ?? "",
      transactionId: id,
      walletFrom: row.wallet_from ?? "",
      walletTo: row.wallet_to ?? "",
      currencyTo: row.code,
      currencyFrom: row.code,
      amount: asked,
      status,
      cancel: status === "CANCEL",
    },
    refundOf: row.refund_of === null ? null : toId(row.refund_of),
    refunded: row.refunded_minor === null ? null : formatMinor(toBigInt(row.refunded_minor), precession),
    refunds:
      row.refunds === null
        ? null
        : refundRecords(row.refunds).map((refund) => ({
            id: refund.id,
            amount: formatMinor(refund.amountMinor, precession),
            createdAt: formatTimestamp(refund.createdAt),
          })),
    deliveries:
      deliveries?.map((delivery) => ({
        ...delivery,
        attempts: delivery.attempts.map((attempt) => ({
          ...attempt,
          attemptedAt: formatTimestamp(attempt.attemptedAt),
        })),
      })) ?? null,
  };
}
