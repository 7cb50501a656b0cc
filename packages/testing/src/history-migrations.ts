import { type Actor, transferFunds } from "@purse/engine";
import type { TestEngine } from "./test-engine.ts";

/** The sample world's merchant whose history the history migrations' tests read. */
export const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
export const dayMs = 86_400_000;
/** Today's UTC midnight, in milliseconds. */
export const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime();

/** One in the morning `days` days ago (UTC). */
export const daysAgo = (days: number) => new Date(midnight - days * dayMs + 3_600_000);

/**
 * A transfer of acme's between two of the sample world's wallets, moved to `at`: the update
 * trigger moves its counts from today to that day (its hash no longer verifies, as it should).
 */
export async function transferAt(engine: TestEngine, amount: string, at: Date): Promise<void> {
  const { id } = await transferFunds(engine.deps, acme, {
    walletFrom: "U100000010",
    walletTo: "U100000020",
    amount,
  });
  await engine.deps.db
    .em()
    .execute(`update transactions set created_at = '${at.toISOString()}' where id = ${id}`);
}
