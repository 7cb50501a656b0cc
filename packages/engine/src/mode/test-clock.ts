import type { EngineDependencies } from "../engine-dependencies.ts";
import type { Database } from "../persistence/database.ts";
import { setStatementClock } from "../persistence/statement-clock.ts";
import { testClockAdvance } from "./test-clock-store.ts";

/** The engine on `deps`, its clock moved `advancedMs` ahead of real time (a test clock). */
export function withTestClock(deps: EngineDependencies, advancedMs: number): EngineDependencies {
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
  return { ...deps, db, now };
}

/**
 * The engine for work on `userId`'s data: the live engine as it is; in test mode on that
 * merchant's test clock (a call that carries no token of theirs: a checkout, the hosted page).
 */
export async function clockedFor(deps: EngineDependencies, userId: number): Promise<EngineDependencies> {
  if (deps.db.mode === "live") return deps;
  return withTestClock(deps, await testClockAdvance(deps.db.queries(), userId));
}
