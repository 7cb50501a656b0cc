import { isDistributed } from "../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql, toBigInt, toId } from "../persistence/sql.ts";
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
export async function findTransactionDetail(
  em: SqlRunner,
  userId: number,
  key: { id: number | null; externalId: string | null },
): Promise<DetailRow | undefined> {
  const { id, externalId } = key;
  const which =
    id !== null
      ? sql`t.id = ${id} ${externalId !== null ? sql`and t.external_id = ${externalId}` : sql``}`
      : sql`t.user_id = ${userId} and t.external_id = ${externalId}`;
  // On Citus (persistence/citus-routing.ts) a transaction's wallets are other owners' shards, which
  // it joins only by repartitioning: they are read by id first, then joined as values.
  let wallets = sql``;
  let walletTable = "wallets";
  if (isDistributed(em)) {
    const [named] = await rows(
      em,
      sql<{ ids: string[] }>`select array[t.wallet_from_id, t.wallet_to_id]::text[] as ids from transactions t
        where ${which} limit 1`,
    );
    wallets = sql`with w as (select id, number, user_id from wallets where id = any(${named?.ids ?? []}::bigint[]))`;
    walletTable = "w";
  }
  const match =
    id !== null
      ? sql`${which} and (t.user_id = ${userId} or wf.user_id = ${userId} or wt.user_id = ${userId})`
      : which;
  return firstRow(
    em,
    // A checkout's transaction and its refunds are the checkout's merchant's (the transaction's
    // user): the owner in those joins keeps them on one shard on Citus.
    sql<DetailRow>`${wallets}
      select t.id, t.external_id, t.amount_minor, ${movedAmount("t")} as moved_minor, t.commission_minor, t.type, t.status, t.currency_id,
        c.code, c.precession, wf.number as wallet_from, wt.number as wallet_to, ck.signature,
        t.refund_of,
        case when ck.id is not null and t.status = 3 then
          (select coalesce(sum(r.amount_minor), 0) from transactions r
           where r.refund_of = t.id and r.user_id = t.user_id)::text
        end as refunded_minor,
        t.user_id = ${userId} as owned,
        -- Listed for the checkout's owner only (refund_of's partial index, migration 0016).
        case when ck.id is not null and t.status = 3 and t.user_id = ${userId} then
          (select coalesce(json_agg(json_build_object('id', r.id::text, 'amount_minor', r.amount_minor::text,
              'created_at', r.created_at) order by r.created_at, r.id), '[]')
            from transactions r where r.refund_of = t.id and r.user_id = t.user_id)::text
        end as refunds
      from transactions t
      join currencies c on c.id = t.currency_id
      left join ${sql.id(walletTable)} wf on wf.id = t.wallet_from_id
      left join ${sql.id(walletTable)} wt on wt.id = t.wallet_to_id
      left join checkouts ck on ck.transaction_id = t.id and ck.merchant_user_id = t.user_id
      where ${match}
      limit 1`,
  );
}
