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
 * Reads the wallet's net change per UTC day from `wallet_days` (migration 0011: one row per day
 * the wallet moved) with the deltas not folded into it yet (`wallet_days_exact`, migration 0020:
 * a day may have a folded row and deltas, summed here), those inside [from, to) per day and those
 * from `to` on summed, with the balance row, in one statement so they agree (one snapshot: the
 * balance, the folded days and the unfolded deltas all as of the same commits). `from` and `to` are whole UTC days, so no posting
 * is read: O(days) whatever the wallet's history.
 */
export async function findBalanceHistoryRows(
  em: SqlEntityManager,
  number: string,
  from: Date,
  to: Date,
): Promise<BalanceHistoryRows | undefined> {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const row = await firstRow(
    em,
    sql<{ user_id: string; precession: number; closing: string; deltas: [string, string][] | null }>`
      select w.user_id, c.precession,
        (w.balance_minor - (select coalesce(sum(d.net_minor), 0) from wallet_days_exact d
           where d.wallet_id = w.id and d.day >= ${day(to)}::date))::text as closing,
        (select json_agg(json_build_array(to_char(d.day, 'YYYY-MM-DD'), d.net::text))
         from (select d.day, sum(d.net_minor) as net from wallet_days_exact d
           where d.wallet_id = w.id and d.day >= ${day(from)}::date and d.day < ${day(to)}::date
           group by d.day) d) as deltas
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
