import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, sql, toBigInt, toId } from "../persistence/sql.ts";
import { movedAmount } from "./moved-amount-store.ts";

/** One transaction with its currency, both wallet numbers and the checkout signature that paid it. */
export interface DetailRow {
  id: string;
  external_id: string | null;
  /** What the payment asked for. */
  amount_minor: string;
  /** What it moved (moved-amount-store.ts): 0 for a checkout that ended unpaid. */
  moved_minor: string;
  commission_minor: string;
  type: number;
  status: number;
  currency_id: number;
  code: string;
  precession: number;
  wallet_from: string | null;
  wallet_to: string | null;
  signature: string | null;
  refund_of: string | null;
  /** A paid checkout's refunds summed (migration 0016); null for anything that is no checkout payment. */
  refunded_minor: string | null;
  /** Whether `userId` made the transaction (a checkout's merchant, a transfer's sender, a refund's merchant). */
  owned: boolean;
  /**
   * A paid checkout's refunds for its owner only, oldest first, as JSON
   * (`[{"id", "amount_minor", "created_at"}]`); null for anyone else and anything else.
   */
  refunds: string | null;
}

/** One refund of a paid checkout, as its detail lists it. */
export interface RefundRecord {
  readonly id: number;
  readonly amountMinor: bigint;
  readonly createdAt: string;
}

/** The refunds the detail's `refunds` column holds. */
export function refundRecords(refunds: string): RefundRecord[] {
  return (JSON.parse(refunds) as { id: string; amount_minor: string; created_at: string }[]).map(
    (refund) => ({
      id: toId(refund.id),
      amountMinor: toBigInt(refund.amount_minor),
      createdAt: refund.created_at,
    }),
  );
}

/**
 * A transaction `userId` made or holds a wallet in, by internal id; or one `userId` made, by its
 * external id; or by both at once.
 */
export function findTransactionDetail(
  em: SqlEntityManager,
  userId: number,
  key: { id: number | null; externalId: string | null },
): Promise<DetailRow | undefined> {
  const { id, externalId } = key;
  const match =
    id !== null
      ? sql`t.id = ${id} and (t.user_id = ${userId} or wf.user_id = ${userId} or wt.user_id = ${userId})`
      : sql`t.user_id = ${userId} and t.external_id = ${externalId}`;
  return firstRow(
    em,
    sql<DetailRow>`
      select t.id, t.external_id, t.amount_minor, ${movedAmount("t")} as moved_minor, t.commission_minor, t.type, t.status, t.currency_id,
        c.code, c.precession, wf.number as wallet_from, wt.number as wallet_to, ck.signature,
        t.refund_of,
        case when ck.id is not null and t.status = 3 then
          (select coalesce(sum(r.amount_minor), 0) from transactions r where r.refund_of = t.id)::text
        end as refunded_minor,
        t.user_id = ${userId} as owned,
        -- Listed for the checkout's owner only (refund_of's partial index, migration 0016).
        case when ck.id is not null and t.status = 3 and t.user_id = ${userId} then
          (select coalesce(json_agg(json_build_object('id', r.id::text, 'amount_minor', r.amount_minor::text,
              'created_at', r.created_at) order by r.created_at, r.id), '[]')
            from transactions r where r.refund_of = t.id)::text
        end as refunds
      from transactions t
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      left join checkouts ck on ck.transaction_id = t.id
      where ${match}
      ${externalId !== null && id !== null ? sql`and t.external_id = ${externalId}` : sql``}
      limit 1`,
  );
}
