import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, sql, toBigInt, toId } from "../persistence/sql.ts";

/** What a balance history is computed from, read in one statement (one snapshot). */
export interface BalanceHistoryRows {
  readonly userId: number;
  readonly precession: number;
  /** The wallet's balance at the end of the range: its balance now less what moved since. */
  readonly closingMinor: bigint;
  /** The sum of the wallet's postings per UTC day inside the range (days without any are absent). */
  readonly deltas: ReadonlyMap<string, bigint>;
}

/**
 * Reads the wallet's postings from `from` on, by the (wallet_id, created_at) index (migration
 * 0010): those inside [from, to) summed per UTC day, those after `to` summed into one number, and
 * the balance row, all in one statement so they agree. The opening balance is never summed from
 * the wallet's first posting.
 */
export async function findBalanceHistoryRows(
  em: SqlEntityManager,
  number: string,
  from: Date,
  to: Date,
): Promise<BalanceHistoryRows | undefined> {
  const row = await firstRow(
    em,
    sql<{ user_id: string; precession: number; closing: string; deltas: [string, string][] | null }>`
      select w.user_id, c.precession,
        (w.balance_minor - (select coalesce(sum(p.amount_minor), 0) from postings p
           where p.wallet_id = w.id and p.created_at >= ${to}))::text as closing,
        (select json_agg(json_build_array(day, delta::text)) from (
           select to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(p.amount_minor) as delta
           from postings p where p.wallet_id = w.id and p.created_at >= ${from} and p.created_at < ${to}
           group by 1) days) as deltas
      from wallets w join currencies c on c.id = w.currency_id
      where w.number = ${number}`,
  );
  if (!row) return undefined;
  return {
    userId: toId(row.user_id),
    precession: Number(row.precession),
    closingMinor: toBigInt(row.closing),
    deltas: new Map((row.deltas ?? []).map(([day, delta]) => [day, toBigInt(delta)])),
  };
}
