import type { Actor } from "../auth/actor.ts";
import { defineOperation } from "../declaration/declare-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { advanceTestClock, testClockOf } from "./advance-test-clock.ts";
import { createTestCredentials } from "./create-test-credentials.ts";
import { fundTestWallet } from "./fund-test-wallet.ts";
import {
  advanceTestClockContract,
  createTestCredentialsContract,
  durationMs,
  testClockContract,
  testCredentialsContract,
  testFundContract,
  testFundResultContract,
} from "./test-mode.contract.ts";

/** Test-mode verbs answer only a test token: a live one is refused before anything is read. */
function requireTestCaller(deps: EngineDependencies): void {
  if (deps.db.mode !== "test") throw new PurseError("TEST_MODE_ONLY");
}

/**
 * GraphQL/tRPC `testFund` (contract: "Test mode"): test money into one of the caller's test
 * wallets, a deposit from test mode's equity through the movement pipeline.
 */
export const testFundOperation = defineOperation({
  name: "testFund",
  kind: "mutation",
  description: "Test money credited to one of the caller's test wallets (test tokens only)",
  scope: "user",
  input: testFundContract,
  output: testFundResultContract,
  errors: ["TEST_MODE_ONLY", "WALLET_TO_NOT_EXISTS", "MAX_AMOUNT", "TOO_PRECISE"],
  run: async (deps, actor: Actor, input) => {
    requireTestCaller(deps);
    const funded = await fundTestWallet(deps, {
      wallet: input.wallet,
      amount: input.amount,
      ownerUserId: actor.userId,
      operator: `user-${actor.userId}`,
    });
    return {
      transactionId: funded.transactionId,
      wallet: input.wallet,
      amount: input.amount,
      livemode: false,
    };
  },
});

/**
 * GraphQL/tRPC `advanceTestClock` (contract: "Test clock"): the caller's test clock moved forward,
 * and every time rule it makes due applied at once (test-mode/advance-test-clock.ts).
 */
export const advanceTestClockOperation = defineOperation({
  name: "advanceTestClock",
  kind: "mutation",
  description: "The caller's test clock moved forward, with every time rule it makes due (test tokens only)",
  scope: "user",
  input: advanceTestClockContract,
  output: testClockContract,
  errors: ["TEST_MODE_ONLY", "INVALID_VALUE"],
  run: async (deps, actor: Actor, input) => {
    requireTestCaller(deps);
    const byMs = durationMs(input.duration);
    if (byMs === null) throw new PurseError("INVALID_VALUE", "duration");
    const state = await advanceTestClock(deps, actor.userId, byMs);
    return { now: state.now, advancedSeconds: Math.floor(state.advancedMs / 1000), livemode: false };
  },
});

/**
 * GraphQL/tRPC `testClock`: where the caller's test clock stands (the dashboard's Test clock shows
 * it before any move). Test mode only, as the verbs that move it.
 */
export const testClockOperation = defineOperation({
  name: "testClock",
  kind: "query",
  description: "Where the caller's test clock stands (test tokens and the dashboard's test mode only)",
  scope: "user",
  input: null,
  output: testClockContract,
  errors: ["TEST_MODE_ONLY"],
  run: async (deps, actor: Actor) => {
    requireTestCaller(deps);
    const state = await testClockOf(deps, actor.userId);
    return { now: state.now, advancedSeconds: Math.floor(state.advancedMs / 1000), livemode: false };
  },
});

/**
 * GraphQL `createTestCredentials` (contract: "Test mode"; the dashboard's Developers section): test
 * credentials for the signed-in user, and a test wallet per currency of their live wallets that has
 * none. The dashboard's session only: GraphQL refuses a bearer token (`sessionOnly`) and tRPC does
 * not publish it, so an API token can never mint credentials. It runs on the session's live engine
 * whatever the test-mode switch says (it reads the live wallets; it writes test mode's data only).
 */
export const createTestCredentialsOperation = defineOperation({
  name: "createTestCredentials",
  kind: "mutation",
  description:
    "Test credentials (test_…) for the signed-in user, shown this once, and a test wallet per currency of their live wallets that has none (the dashboard's session only)",
  scope: "user",
  sessionOnly: true,
  input: createTestCredentialsContract,
  output: testCredentialsContract,
  errors: ["SCOPE_MISSED", "TEST_MODE_ONLY"],
  run: (deps, actor: Actor) => createTestCredentials(deps, actor.userId),
});
