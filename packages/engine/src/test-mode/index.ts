export {
  advanceTestClock,
  maxTestClockStepMs,
  type TestClockState,
  testClockOf,
} from "./advance-test-clock.ts";
export { fundTestWallet, type TestFunding } from "./fund-test-wallet.ts";
export { sweepTestClocks } from "./sweep-test-clocks.ts";
