import { request } from "./client.ts";
import { graphql } from "./graphql.ts";

// The dashboard's test-mode actions (docs/dashboard.md, "Test mode"), on the public API's
// `testFund` and `advanceTestClock`: sent with the switch on, so they reach the session's test data.

const testFundMutation = graphql(`
  mutation DashboardTestFund($wallet: String!, $amount: String!) {
    testFund(wallet: $wallet, amount: $amount) {
      __typename
      ... on MutationTestFundSuccess { data { transactionId wallet amount } }
      ... on PurseError { message }
    }
  }
`);

const advanceTestClockMutation = graphql(`
  mutation DashboardAdvanceTestClock($duration: String!) {
    advanceTestClock(duration: $duration) {
      __typename
      ... on MutationAdvanceTestClockSuccess { data { now advancedSeconds } }
      ... on PurseError { message }
    }
  }
`);

export type Outcome<Data> =
  | { readonly ok: true; readonly data: Data }
  | { readonly ok: false; readonly message: string };

export async function testFund(
  wallet: string,
  amount: string,
): Promise<Outcome<{ transactionId: number; amount: string }>> {
  const { testFund: result } = await request(testFundMutation, { wallet, amount });
  return result.__typename === "PurseError"
    ? { ok: false, message: result.message }
    : { ok: true, data: result.data };
}

export async function advanceTestClock(
  duration: string,
): Promise<Outcome<{ now: string; advancedSeconds: number }>> {
  const { advanceTestClock: result } = await request(advanceTestClockMutation, { duration });
  return result.__typename === "PurseError"
    ? { ok: false, message: result.message }
    : { ok: true, data: result.data };
}

const createTestCredentialsMutation = graphql(`
  mutation DashboardCreateTestCredentials {
    createTestCredentials {
      __typename
      ... on MutationCreateTestCredentialsSuccess {
        data { clientId clientSecret formToken webhookSecret wallets { number currency } }
      }
      ... on PurseError { message }
    }
  }
`);

export interface TestCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly formToken: string;
  readonly webhookSecret: string;
  readonly wallets: readonly { readonly number: string; readonly currency: string }[];
}

/** Test credentials for the signed-in user (the session only: the API refuses a bearer token). */
export async function createTestCredentials(): Promise<Outcome<TestCredentials>> {
  const { createTestCredentials: result } = await request(createTestCredentialsMutation, {});
  return result.__typename === "PurseError"
    ? { ok: false, message: result.message }
    : { ok: true, data: result.data };
}

const testClockQuery = graphql(`
  query DashboardTestClock {
    testClock {
      __typename
      ... on QueryTestClockSuccess { data { now advancedSeconds } }
      ... on PurseError { message }
    }
  }
`);

/** Where the merchant's test clock stands. */
export async function readTestClock(
  signal?: AbortSignal,
): Promise<Outcome<{ now: string; advancedSeconds: number }>> {
  const { testClock: result } = await request(testClockQuery, {}, signal);
  return result.__typename === "PurseError"
    ? { ok: false, message: result.message }
    : { ok: true, data: result.data };
}
