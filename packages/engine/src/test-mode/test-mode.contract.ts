import { z } from "zod";
import { boundedText, paymentAmount } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";

/** Test money into one of the caller's test wallets (GraphQL/tRPC `testFund`). */
export const testFundContract = z.object({
  wallet: boundedText(inputBounds.walletNumber).describe("One of the caller's test wallets (test_…)"),
  amount: paymentAmount.describe('Exact decimal, e.g. "100.00"'),
});

export const testFundResultContract = z.object({
  transactionId: z.number().describe("The test deposit's transaction id"),
  wallet: z.string(),
  amount: z.string().describe("What was credited, exact decimal"),
  livemode: z.boolean().describe("Always false: test data"),
});

/** `30s`, `90m`, `24h`, `2d`: a number and a unit, as `purse test clock advance` takes it. */
const durationPattern = /^(\d{1,9})(s|m|h|d)$/;
const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration as text to milliseconds; null when it is not one. */
export function durationMs(text: string): number | null {
  const match = durationPattern.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}

/** Moves the caller's test clock forward (GraphQL/tRPC `advanceTestClock`). */
export const advanceTestClockContract = z.object({
  duration: boundedText(16).describe(
    "How far forward: a number and a unit, 30s, 90m, 24h or 2d (at most ten years)",
  ),
});

export const testClockContract = z.object({
  now: z.string().describe("The test clock's time (after the move, for a move), ISO 8601 UTC"),
  advancedSeconds: z.number().describe("How far the clock runs ahead of real time, in whole seconds"),
  livemode: z.boolean().describe("Always false: test data"),
});

/** `createTestCredentials` takes nothing: the session names the user. */
export const createTestCredentialsContract = z.object({});

/** Test credentials made for the dashboard's signed-in user (GraphQL `createTestCredentials`). */
export const testCredentialsContract = z.object({
  clientId: z.string().describe("The test client's id (test_…)"),
  clientSecret: z.string().describe("Its secret for POST /token (test_…), shown this once"),
  formToken: z.string().describe("The token that signs its checkouts (test_…), shown this once"),
  webhookSecret: z.string().describe("Its signing secret of status_url notifications, shown this once"),
  wallets: z
    .array(z.object({ number: z.string(), currency: z.string().describe("Currency code") }))
    .describe("The test wallets made now, one per currency of the user's live wallets that had none"),
  livemode: z.boolean().describe("Always false: test data"),
});
