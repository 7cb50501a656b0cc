import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { firstRow, rows, sql, toBigInt, toId } from "../persistence/sql.ts";
import { type HistoryFilter, type HistoryInput, readHistoryFilter } from "./history-filter.ts";
import { searchConditions, searchedTransactions } from "./transaction-filter.ts";

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
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface HistoryPage {
  readonly items: HistoryItemView[];
  readonly meta: { perPage: number; page: number; lastPage: number; total: number };
}

interface HistoryRow {
  id: string;
  type: number;
  status: number;
  wallet_from: string | null;
  wallet_to: string | null;
  currency_code: string;
  precession: number;
  amount_from_minor: string;
  amount_to_minor: string;
  delta_minor: string;
  description: string;
  additional: string;
  voucher_number: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * A merchant's transactions, newest first: every one that touched one of the merchant's wallets.
 * The same search as the GraphQL and tRPC transaction search (`searchConditions`), projected as
 * the specification's history items and paged by number.
 */
export async function listHistory(
  deps: EngineDependencies,
  actor: Actor,
  input: HistoryInput,
): Promise<HistoryPage> {
  requireAccess(actor, ["merchant"]);
  const filter = readHistoryFilter(input);
  const em = deps.db.em();
  const queries = historyQueries(actor.userId, filter);
  const counted = await firstRow(em, queries.count);
  const total = Number(counted?.total ?? 0);
  const found = await rows(em, queries.page);
  return {
    items: found.map(itemView),
    meta: {
      perPage: filter.perPage,
      page: filter.page,
      lastPage: Math.max(1, Math.ceil(total / filter.perPage)),
      total,
    },
  };
}

/** The two statements of a history page (exported so the benchmark can EXPLAIN them as run). */
export function historyQueries(userId: number, filter: HistoryFilter) {
  const where = searchConditions(userId, filter);
  return {
    count: sql<{ total: string }>`select count(*) as total ${from} where ${where}`,
    page: sql<HistoryRow>`
      select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to,
        c.code as currency_code, c.precession,
        t.amount_from_minor, t.amount_to_minor,
        (case when wf.user_id = ${userId} then -t.amount_from_minor else 0 end
          + case when wt.user_id = ${userId} then t.amount_to_minor else 0 end) as delta_minor,
        t.description, t.additional, v.number as voucher_number, t.created_at, t.updated_at
      ${from} where ${where}
      order by t.created_at desc, t.id desc
      limit ${filter.perPage} offset ${(filter.page - 1) * filter.perPage}`,
  };
}

/** The search's tables, and the voucher a voucher activation redeemed. */
const from = sql`${searchedTransactions}
  left join vouchers v on v.activation_transaction_id = t.id`;

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
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
  };
}
