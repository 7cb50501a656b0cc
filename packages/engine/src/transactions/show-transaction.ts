import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { transactionStatusName, transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import type { QueryValue } from "./history-filter.ts";
import { type DetailRow, findTransactionDetail } from "./transaction-store.ts";

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
  const row = await deps.db.fresh((em) =>
    findTransactionDetail(em, actor.userId, {
      id: id === null ? null : Number(id),
      externalId,
    }),
  );
  if (!row) throw new PurseError("NOT_FOUND");
  return detailView(row);
}

function text(value: QueryValue): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = String(value).trim();
  return trimmed === "" ? null : trimmed;
}

function detailView(row: DetailRow): TransactionDetailView {
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
  };
}
