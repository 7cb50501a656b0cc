import type { EngineDependencies } from "../engine-dependencies.ts";
import { movedTestClocks, withTestClock } from "../mode/index.ts";
import { testEngine } from "../mode/test-engine.ts";
import { applyTimeRules } from "./advance-test-clock.ts";

/**
 * The background sweeps for merchants whose test clock was moved: the ordinary sweeps run on real
 * time, which is behind such a clock, so a link that expires by the moved clock between two moves
 * is closed here, on its merchant's clock. Run beside the ordinary sweeps (server background jobs).
 */
export async function sweepTestClocks(deps: EngineDependencies): Promise<number> {
  const test = testEngine(deps);
  const moved = await movedTestClocks(test.db.queries());
  for (const clock of moved) await applyTimeRules(withTestClock(test, clock.advancedMs), clock.userId);
  return moved.length;
}
