import { firstRow, rows, type SqlRunner, sql } from "../persistence/sql.ts";

/**
 * Each merchant's test clock (contract: "Test clock"; migration 0019): how far it has been moved
 * ahead of real time, so it keeps running with real time between moves.
 */
export async function testClockAdvance(runner: SqlRunner, userId: number): Promise<number> {
  const row = await firstRow(
    runner,
    sql<{ advanced_ms: string }>`select advanced_ms from test_clocks where user_id = ${userId}`,
  );
  return row ? Number(row.advanced_ms) : 0;
}

/** Moves `userId`'s clock `byMs` further ahead; answers how far ahead it now is. */
export async function moveTestClock(runner: SqlRunner, userId: number, byMs: number): Promise<number> {
  const row = await firstRow(
    runner,
    sql<{ advanced_ms: string }>`insert into test_clocks (user_id, advanced_ms) values (${userId}, ${byMs})
      on conflict (user_id) do update set advanced_ms = test_clocks.advanced_ms + excluded.advanced_ms,
        -- The inserted row's default, now(): Citus refuses a function in DO UPDATE SET that is not IMMUTABLE.
        updated_at = excluded.updated_at
      returning advanced_ms`,
  );
  return Number(row?.advanced_ms ?? byMs);
}

/** The clocks that were ever moved, with how far each is ahead. */
export async function movedTestClocks(runner: SqlRunner): Promise<{ userId: number; advancedMs: number }[]> {
  const found = await rows(
    runner,
    sql<{
      user_id: string;
      advanced_ms: string;
    }>`select user_id, advanced_ms from test_clocks where advanced_ms > 0`,
  );
  return found.map((row) => ({ userId: Number(row.user_id), advancedMs: Number(row.advanced_ms) }));
}
