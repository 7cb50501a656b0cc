import { advanceTestClock, fundTestWallet, testClockOf, userIdByLogin } from "@purse/engine";
import type { Command } from "commander";
import { nameArguments } from "../name-arguments.ts";
import { operatorEngine, operatorName } from "../operator-engine.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/**
 * `purse test fund WALLET AMOUNT` and `purse test clock advance|show` (contract: "Test mode",
 * "Test clock"): test money into a test wallet, and a merchant's test clock moved forward, with
 * every time rule it makes due applied at once. Live data is never touched.
 */
export function registerTestMode(program: Command): void {
  const test = program.command("test").description("test mode: fund test wallets, move test clocks");
  test
    .command("fund")
    .argument("<wallet>", "a test wallet's number (test_…)")
    .argument("<amount>", "decimal amount, e.g. 100.00")
    .option("--operator <name>", "who runs this, recorded on the deposit (default: the OS user)")
    .description("credit a test wallet with test money")
    .action((wallet: string, amount: string, o: { operator?: string }) =>
      withDatabase(async (db) => {
        const engine = await operatorEngine(db);
        try {
          const funded = await fundTestWallet(engine.deps, {
            wallet,
            amount,
            operator: operatorName(o.operator),
          }).catch(
            nameArguments(
              { name: "WALLET", value: wallet, field: "wallet_to", names: "wallet" },
              { name: "AMOUNT", value: amount, field: "amount" },
            ),
          );
          printResult({ wallet, amount, transaction_id: funded.transactionId, livemode: false }, [
            `Test wallet ${wallet} funded with ${amount} (test transaction ${funded.transactionId}).`,
          ]);
        } finally {
          await engine.close();
        }
      }),
    );
  const clock = test.command("clock").description("a merchant's test clock: real time until moved");
  clock
    .command("advance")
    .argument("<duration>", "how far forward: 30m, 24h, 2d…")
    .requiredOption("--user <login>", "the merchant whose test clock moves")
    .description("move a test clock forward and apply every time rule it makes due")
    .action((duration: string, o: { user: string }) =>
      withDatabase(async (db) => {
        const byMs = parseDuration(duration, "DURATION");
        const engine = await operatorEngine(db);
        try {
          const userId = await userIdByLogin(db, o.user).catch(
            nameArguments({ name: "--user", value: o.user, field: "login", names: "user" }),
          );
          const state = await advanceTestClock(engine.deps, userId, byMs).catch(
            nameArguments({ name: "DURATION", value: duration, field: "duration" }),
          );
          printResult({ user: o.user, now: state.now, advanced_ms: state.advancedMs }, [
            `${o.user}'s test clock now reads ${state.now} (${state.advancedMs} ms ahead of real time).`,
          ]);
        } finally {
          await engine.close();
        }
      }),
    );
  clock
    .command("show")
    .requiredOption("--user <login>", "the merchant")
    .description("where a merchant's test clock stands")
    .action((o: { user: string }) =>
      withDatabase(async (db) => {
        const engine = await operatorEngine(db);
        try {
          const userId = await userIdByLogin(db, o.user).catch(
            nameArguments({ name: "--user", value: o.user, field: "login", names: "user" }),
          );
          const state = await testClockOf(engine.deps, userId);
          printResult({ user: o.user, now: state.now, advanced_ms: state.advancedMs }, [
            `${o.user}'s test clock reads ${state.now} (${state.advancedMs} ms ahead of real time).`,
          ]);
        } finally {
          await engine.close();
        }
      }),
    );
}
