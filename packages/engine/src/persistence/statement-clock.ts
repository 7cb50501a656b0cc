import { isDistributed } from "./citus-routing.ts";
import { rows, type SqlRunner, sendAhead, sql } from "./sql.ts";

/**
 * The time a ledger write records (`created_at`): the transaction's own `now()`, unless the
 * transaction set a clock of its own (`setStatementClock`): test mode's, whose merchant moved
 * their test clock (contract: "Test clock"). A live transaction never sets one, so its rows keep
 * PostgreSQL's time; reading an unset setting costs the statement nothing measurable.
 */
export const statementNow = sql<Date>`coalesce(nullif(current_setting('purse.clock', true), '')::timestamptz, now())`;

/** From here to the end of the transaction, `statementNow` is `at` (`set_config`'s local form). */
export async function setStatementClock(runner: SqlRunner, at: Date): Promise<void> {
  await sendAhead(runner, sql`select set_config('purse.clock', ${at.toISOString()}, true)`);
}

/**
 * `statementNow` for an UPDATE: on Citus (citus-routing.ts) its value read first and passed as a
 * value, since Citus refuses a function that is not immutable inside a COALESCE of a statement that
 * modifies a distributed table; elsewhere the expression itself.
 */
export async function statementNowToWrite(runner: SqlRunner) {
  if (!isDistributed(runner)) return statementNow;
  const [now] = await rows(runner, sql<{ at: string }>`select ${statementNow}::text as at`);
  return sql<Date>`${now?.at ?? null}::timestamptz`;
}
