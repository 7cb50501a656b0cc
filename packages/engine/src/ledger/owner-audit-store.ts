import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";

/**
 * Postings whose owner (migration 0021, `postings.user_id`) is not the one the movement gives them:
 * its wallet's owner, or for a fee, equity or voucher posting its transaction's acting user. On
 * Citus the owner decides the worker a posting lives on (docs/sharding.md), so a wrong one would
 * put it beside another user's rows.
 */
export async function misownedPostingRows(
  em: SqlEntityManager,
  limit: number,
): Promise<{ id: string; user_id: string; expected: string }[]> {
  return rows(
    em,
    sql<{ id: string; user_id: string; expected: string }>`
      select p.id, p.user_id, coalesce(w.user_id, t.user_id) as expected
      from postings p
      join transactions t on t.id = p.transaction_id
      left join wallets w on w.id = p.wallet_id
      where p.user_id is distinct from coalesce(w.user_id, t.user_id)
      order by p.id limit ${limit}`,
  );
}
