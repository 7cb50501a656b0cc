import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";

/**
 * Test mode's engine from either mode's: verbs that exist only for test data (fund, clock) refuse
 * a deployment without test mode as they refuse an unknown wallet.
 */
export function testEngine(deps: EngineDependencies): EngineDependencies {
  if (deps.db.mode === "test") return deps;
  if (!deps.testMode) throw new PurseError("NOT_FOUND");
  return deps.testMode;
}
