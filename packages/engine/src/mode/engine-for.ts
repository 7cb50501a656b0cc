import type { EngineDependencies } from "../engine-dependencies.ts";
import { isTestCredential } from "./data-mode.ts";

/**
 * The engine of the mode a credential names: test mode's for a `test_` one, the live one for any
 * other. A deployment without test mode looks a `test_` credential up live, where it is unknown.
 */
export function engineFor(deps: EngineDependencies, credential: unknown): EngineDependencies {
  return isTestCredential(credential) && deps.testMode ? deps.testMode : deps;
}
