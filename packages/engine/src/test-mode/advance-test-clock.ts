import { failAllExpiredCheckouts } from "../checkout/fail-expired-checkouts.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { moveTestClock, testClockAdvance, withTestClock } from "../mode/index.ts";
import { testEngine } from "../mode/test-engine.ts";
import { defaultRetention } from "../retention/prune-tables.ts";
import { closeExpiredVouchers } from "../voucher/close-expired-vouchers.ts";
import { bringRetriesForward, deleteIdempotencyKeysOf } from "./clock-move-store.ts";

/** The furthest one move may go: ten years (a typo of units should not throw a clock past 9999). */
export const maxTestClockStepMs = 10 * 366 * 24 * 3_600_000;

export interface TestClockState {
  /** The clock's time now, ISO 8601. */
  readonly now: string;
  /** How far it runs ahead of real time, in milliseconds. */
  readonly advancedMs: number;
}

/**
 * Moves `userId`'s test clock forward by `byMs` (contract: "Test clock"; `purse test clock
 * advance`, GraphQL/tRPC `advanceTestClock`), then applies at once every time rule the move makes
 * due on that merchant's test data: checkouts whose link expired become FAIL with their FAIL
 * notification, vouchers past their expiry close, Idempotency-Keys past their lifetime are freed,
 * webhook retries scheduled within the move go out. The background sweeps would reach them only when
 * real time does; other merchants' clocks do not move.
 */
export async function advanceTestClock(
  deps: EngineDependencies,
  userId: number,
  byMs: number,
): Promise<TestClockState> {
  if (!Number.isSafeInteger(byMs) || byMs <= 0 || byMs > maxTestClockStepMs) {
    throw new PurseError("INVALID_VALUE", "duration");
  }
  const test = testEngine(deps);
  const advancedMs = await moveTestClock(test.db.queries(), userId, byMs);
  const clocked = withTestClock(test, advancedMs);
  await applyTimeRules(clocked, userId);
  await bringRetriesForward(test.db.queries(), userId, byMs, await test.db.distributed());
  return { now: clocked.now().toISOString(), advancedMs };
}

/** The time rules a sweep applies, for one merchant's test data on their clock. */
export async function applyTimeRules(clocked: EngineDependencies, userId: number): Promise<void> {
  const now = clocked.now();
  await failAllExpiredCheckouts(clocked, 100, userId);
  await closeExpiredVouchers(clocked.db, now, userId);
  const keyDays = clocked.options.idempotencyKeyDays ?? defaultRetention.idempotencyKeysDays;
  await deleteIdempotencyKeysOf(clocked.db.queries(), userId, new Date(now.getTime() - keyDays * 86_400_000));
}

/** Where `userId`'s test clock stands. */
export async function testClockOf(deps: EngineDependencies, userId: number): Promise<TestClockState> {
  const test = testEngine(deps);
  const advancedMs = await testClockAdvance(test.db.queries(), userId);
  return { now: withTestClock(test, advancedMs).now().toISOString(), advancedMs };
}
