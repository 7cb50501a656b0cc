import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { type HistoryInput, readHistoryFilter } from "./history-filter.ts";
import { type HistoryRow, readHistory } from "./history-store.ts";
import { hasAmountBounds } from "./transaction-filter.ts";

export interface HistoryItemView {
  readonly id: number;
  readonly type: number;
  readonly status: number;
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly currencyFromCode: string;
  readonly currencyToCode: string;
  readonly amountFrom: string;
  readonly amountTo: string;
  /**
   * The change of the caller's USD balance (spec): the signed sum over the caller's USD wallets,
   * so 0 for a movement in any other currency (nothing is converted at a rate).
   */
  readonly totalUsd: string;
  readonly description: string;
  readonly additional: string;
  readonly voucherNumber: string;
  /** A refund's checkout transaction id (migration 0016); null for every other transaction. */
  readonly refundOf: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface HistoryPage {
  readonly items: HistoryItemView[];
  readonly meta: HistoryMeta;
}

/**
 * The specification's page meta; under amount bounds (`minAmount`, `maxAmount`, beyond the
 * specification) also whether a page follows and whether `total` is exact: those totals are
 * counted up to a cap (`amountTotalsCap`), past which `total` is the cap ("at least") and
 * `lastPage` the pages it fills.
 */
export interface HistoryMeta {
  readonly perPage: number;
  readonly page: number;
  readonly lastPage: number;
  readonly total: number;
  readonly hasMore?: boolean;
  readonly totalExact?: boolean;
}

/**
 * A merchant's transactions, newest first: every one that touched one of the merchant's wallets.
 * The same filter as the GraphQL and tRPC transaction search (`matched`), projected as
 * the specification's history items and paged by number (history-store.ts).
 */
export async function listHistory(
  deps: EngineDependencies,
  actor: Actor,
  input: HistoryInput,
): Promise<HistoryPage> {
  requireAccess(actor, ["merchant"]);
  const filter = readHistoryFilter(input);
  const { total, exact, rows: found } = await readHistory(deps.db, actor.userId, filter);
  const meta = {
    perPage: filter.perPage,
    page: filter.page,
    lastPage: Math.max(1, Math.ceil(total / filter.perPage)),
    total,
  };
  return {
    // The page's rows and the one past it, if any (history-store.ts).
    items: found.slice(0, filter.perPage).map(itemView),
    meta: hasAmountBounds(filter)
      ? { ...meta, hasMore: found.length > filter.perPage, totalExact: exact }
      : meta,
  };
}

/** Wallets hold one currency and a movement stays in it: USD wallets are those of this code. */
const usdCode = "USD";

function itemView(row: HistoryRow): HistoryItemView {
  const precession = Number(row.precession);
  return {
    id: toId(row.id),
    type: Number(row.type),
    status: Number(row.status),
    walletFrom: row.wallet_from ?? "",
    walletTo: row.wallet_to ?? "",
    currencyFromCode: row.currency_code,
    currencyToCode: row.currency_code,
    amountFrom: formatMinor(toBigInt(row.amount_from_minor), precession),
    amountTo: formatMinor(toBigInt(row.amount_to_minor), precession),
    totalUsd: row.currency_code === usdCode ? formatMinor(toBigInt(row.delta_minor), precession) : "0",
    description: row.description,
    additional: row.additional,
    voucherNumber: row.voucher_number ?? "",
    refundOf: row.refund_of === null ? null : toId(row.refund_of),
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
  };
}
