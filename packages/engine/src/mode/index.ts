export { type Caller, engineFor, resolveCaller, testEngineOf } from "./caller.ts";
export { inMode, isTestCredential, testPrefix } from "./data-mode.ts";
export { clockedFor, withTestClock } from "./test-clock.ts";
export { movedTestClocks, moveTestClock, testClockAdvance } from "./test-clock-store.ts";
