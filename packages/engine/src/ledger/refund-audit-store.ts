import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";
import { TransactionStatus, TransactionType } from "./transaction-codes.ts";

/** A checkout transaction some refund points at, where the refunds break a rule. */
export interface RefundBreachRow {
  refund_of: string;
  refunds: string;
  refunded: string;
  paid: string | null;
  paid_checkout: boolean;
  well_formed: boolean;
}

const { SUCCESS } = TransactionStatus;
const { DEPOSIT, WITHDRAW } = TransactionType;

/**
 * Checkouts whose refunds break a rule (migration 0016): every refund points at a paid checkout
 * (a successful DEPOSIT that closed a checkout), is itself a successful WITHDRAW from the
 * checkout's receiving wallet to its paying wallet in its currency, and together they never
 * exceed what the payer paid.
 */
export async function refundBreachRows(em: SqlEntityManager, limit: number): Promise<RefundBreachRow[]> {
  return rows(
    em,
    sql<RefundBreachRow>`
      select r.refund_of, count(*)::text as refunds, sum(r.amount_minor)::text as refunded,
        min(t.amount_minor)::text as paid,
        bool_and(t.type = ${DEPOSIT} and t.status = ${SUCCESS} and ck.id is not null) as paid_checkout,
        bool_and(r.type = ${WITHDRAW} and r.status = ${SUCCESS} and r.wallet_from_id = t.wallet_to_id
          and r.wallet_to_id = t.wallet_from_id and r.currency_id = t.currency_id) as well_formed
      from transactions r
      left join transactions t on t.id = r.refund_of
      left join checkouts ck on ck.transaction_id = t.id and ck.status = ${SUCCESS}
      where r.refund_of is not null
      group by r.refund_of
      having not coalesce(bool_and(t.type = ${DEPOSIT} and t.status = ${SUCCESS} and ck.id is not null), false)
        or not coalesce(bool_and(r.type = ${WITHDRAW} and r.status = ${SUCCESS}
          and r.wallet_from_id = t.wallet_to_id and r.wallet_to_id = t.wallet_from_id
          and r.currency_id = t.currency_id), false)
        or sum(r.amount_minor) > min(t.amount_minor)
      order by r.refund_of limit ${limit}`,
  );
}
