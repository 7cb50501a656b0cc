export { type Caller, resolveCaller, testEngineOf } from "./caller.ts";
export { inMode, isTestCredential, testPrefix } from "./data-mode.ts";
export { engineFor } from "./engine-for.ts";
export { clockedFor, withTestClock } from "./test-clock.ts";
export { movedTestClocks, moveTestClock, testClockAdvance } from "./test-clock-store.ts";
export { testEngine } from "./test-engine.ts";
