import { rows, type SqlRunner, sql } from "../persistence/sql.ts";

/** A checkout as the merchant's list shows it, with its currency and both wallet numbers. */
export interface CheckoutListRow {
  id: string;
  payment_id: string;
  user_info: string;
  status: number;
  amount_minor: string;
  commission_minor: string;
  code: string;
  precession: number;
  wallet_from: string;
  wallet_to: string;
  transaction_id: string | null;
  created_at: Date | string;
  expired_at: Date | string;
  completed_at: Date | string | null;
  token_hash: string;
  /** Null for checkouts created before migration 0018. */
  link_sealed: string | null;
  refunded_minor: string | null;
}

type ListedCheckout = Omit<CheckoutListRow, "wallet_from" | "wallet_to"> & {
  wallet_from_id: string;
  wallet_to_id: string;
};

/**
 * A merchant's checkouts (by user id or login), newest first: of one status or all, when
 * `beforePaymentId` is given only those created before that checkout, and when `paymentId` is
 * given only that one (its unique key with the merchant's id finds it).
 *
 * The merchant's rows first, their refunds summed on the merchant (a refund is its checkout
 * transaction's, the merchant's), then the page's wallet numbers by id: the payer's wallet is
 * another owner's, which on Citus (docs/sharding.md) a join would reach only by repartitioning
 * (refused: the list answered an internal error there). Every database reads the same two.
 */
export async function findCheckoutList(
  em: SqlRunner,
  query: {
    owner: { userId: number } | { login: string };
    status: number | null;
    beforePaymentId: string | null | undefined;
    paymentId?: string;
    limit: number;
  },
): Promise<CheckoutListRow[]> {
  const { owner, status } = query;
  const found = await rows(
    em,
    sql<ListedCheckout>`
      select k.id, k.payment_id, k.user_info, k.status, k.amount_minor, k.commission_minor,
        c.code, c.precession, k.wallet_from_id, k.wallet_to_id, k.transaction_id,
        k.created_at, k.expired_at, k.completed_at, k.token_hash, k.link_sealed,
        case when k.status = 3 then
          (select coalesce(sum(r.amount_minor), 0) from transactions r
           where r.refund_of = k.transaction_id and r.user_id = k.merchant_user_id)::text
        end as refunded_minor
      from checkouts k
      join users u on u.id = k.merchant_user_id
      join currencies c on c.id = k.currency_id
      where ${"userId" in owner ? sql`k.merchant_user_id = ${owner.userId}` : sql`u.login = ${owner.login}`}
        ${status === null ? sql`` : sql`and k.status = ${status}`}
        ${query.paymentId === undefined ? sql`` : sql`and k.payment_id = ${query.paymentId}`}
        ${
          query.beforePaymentId
            ? sql`and k.id < (select b.id from checkouts b
                where b.merchant_user_id = k.merchant_user_id and b.payment_id = ${query.beforePaymentId})`
            : sql``
        }
      order by k.id desc
      limit ${query.limit}`,
  );
  if (found.length === 0) return [];
  const ids = [...new Set(found.flatMap((row) => [row.wallet_from_id, row.wallet_to_id]))];
  const numbers = new Map(
    (
      await rows(
        em,
        sql<{ id: string; number: string }>`select id, number from wallets where id = any(${ids}::bigint[])`,
      )
    ).map((wallet) => [String(wallet.id), wallet.number]),
  );
  return found.flatMap(({ wallet_from_id, wallet_to_id, ...row }) => {
    const [walletFrom, walletTo] = [numbers.get(String(wallet_from_id)), numbers.get(String(wallet_to_id))];
    return walletFrom === undefined || walletTo === undefined
      ? []
      : [{ ...row, wallet_from: walletFrom, wallet_to: walletTo }];
  });
}
