import { TransactionStatus } from "../ledger/transaction-codes.ts";
import { sql } from "../persistence/sql.ts";
import { amountTotalsCap } from "./amount-totals-cap.ts";

/**
 * The most matches money in and out are added up over: the same 1 000 as the totals under amount
 * bounds (amount-totals-cap.ts, whose measurements say why), so a search never reads more than
 * about a page's worth of rows for them, whatever the ledger's size.
 */
export const flowTotalsCap = amountTotalsCap;

/** Per currency: what the completed matches moved into and out of the caller's wallets (minor units). */
export interface FlowRow {
  currency_id: number;
  completed: string;
  money_in: string;
  money_out: string;
  /** More than `flowTotalsCap` transactions match: the sums are of some of them only. */
  capped: boolean;
}

/**
 * Money in, money out and how many completed (SUCCESS) transactions of the rows `seen` names
 * (`seenMatches`'s: what `matched(userId, filter)` finds), per currency: in is `amount_to` of each
 * one into one of the caller's wallets, out is `amount_from` of each one out of one (a transfer
 * between two of the caller's own wallets is both), so in − out is what those transactions changed
 * the caller's balances by, and each figure is the sum of the CSV export's `amount_to` /
 * `amount_from` column over its rows of that direction and status. Pending, failed and cancelled
 * transactions move nothing and count in neither.
 *
 * The daily counts keep no direction, so the matches are read (each once, `matchedOnce`), up to
 * `flowTotalsCap` and one more, which says there are more: then `capped`, and the caller shows no
 * figure rather than a partial one (money must add up exactly or not be shown).
 */
export function flowTotalsOf(userId: number, seen: ReturnType<typeof sql>) {
  const owned = sql`(select o.id from wallets o where o.user_id = ${userId})`;
  const cap = sql.lit(flowTotalsCap);
  const done = sql`f.status = ${TransactionStatus.SUCCESS}::smallint`;
  return sql<FlowRow>`
    select f.currency_id, count(*) filter (where ${done})::text as completed,
      coalesce(sum(f.amount_to_minor) filter (where ${done} and f.wallet_to_id in ${owned}), 0)::text
        as money_in,
      coalesce(sum(f.amount_from_minor) filter (where ${done} and f.wallet_from_id in ${owned}), 0)::text
        as money_out,
      (select count(*) from ${seen}) > ${cap} as capped
    from ${seen} as f
    group by f.currency_id`;
}
