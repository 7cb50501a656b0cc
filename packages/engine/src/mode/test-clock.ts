import type { EngineDependencies } from "../engine-dependencies.ts";
import type { Database } from "../persistence/database.ts";
import { setStatementClock } from "../persistence/statement-clock.ts";
import type { RateLimiter } from "../rate-limit/rate-limiter.ts";
import { testClockAdvance } from "./test-clock-store.ts";

/** The engine on `deps`, its clock moved `advancedMs` ahead of real time (a test clock). */
export function withTestClock(clockedOrNot: EngineDependencies, advancedMs: number): EngineDependencies {
  // Always from real time: a caller's engine already on their clock is moved from its base.
  const deps = onRealTime.get(clockedOrNot) ?? clockedOrNot;
  if (advancedMs === 0) return deps;
  const realNow = deps.now;
  const now = () => new Date(realNow().getTime() + advancedMs);
  // Its ledger writes record the clock's time too (`created_at`, persistence/statement-clock.ts).
  const db: Database = {
    ...deps.db,
    transact: (work) =>
      deps.db.transact(async (tx) => {
        await setStatementClock(tx, now());
        return work(tx);
      }),
  };
  // Its rate-limit windows slide on the clock too (contract: "Test clock").
  const rateLimiter: RateLimiter = {
    attempt: (key, route) => deps.rateLimiter.attempt(key, route, now().getTime()),
    consume: (key, route) => deps.rateLimiter.consume(key, route, now().getTime()),
  };
  const clocked = { ...deps, db, now, rateLimiter };
  onRealTime.set(clocked, deps);
  return clocked;
}

/** Each engine on a test clock, to the engine on real time it was made from. */
const onRealTime = new WeakMap<EngineDependencies, EngineDependencies>();

/**
 * The engine for work on `userId`'s data: the live engine as it is; in test mode on that
 * merchant's test clock (a call that carries no token of theirs: a checkout, the hosted page).
 */
export async function clockedFor(deps: EngineDependencies, userId: number): Promise<EngineDependencies> {
  if (deps.db.mode === "live") return deps;
  return withTestClock(deps, await testClockAdvance(deps.db.queries(), userId));
}
