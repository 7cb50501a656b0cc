import { type Actor, listHistory, transferFunds } from "@purse/engine";
import type { TestEngine } from "./test-engine.ts";

/** The sample world's merchant whose history the history migrations' tests read. */
export const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
export const dayMs = 86_400_000;
/** Today's UTC midnight, in milliseconds. */
export const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime();

/** One in the morning `days` days ago (UTC). */
export const daysAgo = (days: number) => new Date(midnight - days * dayMs + 3_600_000);

/**
 * A transfer of acme's between two of the sample world's wallets, moved to `at`: the update
 * trigger moves its counts from today to that day (its hash no longer verifies, as it should).
 */
export async function transferAt(engine: TestEngine, amount: string, at: Date): Promise<void> {
  const { id } = await transferFunds(engine.deps, acme, {
    walletFrom: "U100000010",
    walletTo: "U100000020",
    amount,
  });
  await engine.deps.db
    .em()
    .execute(`update transactions set created_at = '${at.toISOString()}' where id = ${id}`);
}

/**
 * Acme's history total from `from` to `until` days ago (whole UTC days) under the amount bounds, as
 * the history answers it and as a count of the rows, each prefixed with what was asked, so that a
 * failed comparison says which case.
 */
export async function boundedTotal(
  engine: TestEngine,
  from: number,
  until: number,
  minAmount: string | undefined,
  maxAmount: string | undefined,
): Promise<{ answered: string; counted: string; matching: number }> {
  const startDate = new Date(midnight - from * dayMs).toISOString().slice(0, 10);
  const endDate = new Date(midnight - until * dayMs).toISOString().slice(0, 10);
  const [expected] = await engine.deps.db.em().execute<{ n: string }[]>(
    `select count(*)::text as n from transactions t
      where (t.wallet_from_id in (select id from wallets where user_id = 1)
             or t.wallet_to_id in (select id from wallets where user_id = 1))
        and t.created_at >= ?::date and t.created_at < ?::date + 1
        and (?::numeric is null or t.amount_minor >= ?::numeric * 100)
        and (?::numeric is null or t.amount_minor <= ?::numeric * 100)`,
    [startDate, endDate, minAmount ?? null, minAmount ?? null, maxAmount ?? null, maxAmount ?? null],
  );
  const page = await listHistory(engine.deps, acme, {
    startDate,
    endDate,
    page: 1,
    itemsPerPage: 5,
    minAmount,
    maxAmount,
  });
  const asked = `${startDate}..${endDate} ${minAmount}..${maxAmount}`;
  return {
    answered: `${asked}: ${page.meta.total}`,
    counted: `${asked}: ${expected?.n}`,
    matching: Number(expected?.n),
  };
}
