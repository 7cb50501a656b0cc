import {
  failAllExpiredCheckouts,
  inProcessEventBus,
  listCheckoutsOfLogin,
  openSecretBox,
} from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { nameArguments } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { parseCount } from "../parse-count.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse checkouts list | expire`: reconcile a merchant's orders; close expired links now. */
export function registerCheckouts(program: Command): void {
  const checkouts = program
    .command("checkouts")
    .description("list a merchant's checkouts; close expired ones");
  checkouts
    .command("list")
    .argument("<login>", "the merchant's (or partner's) login")
    .option("--status <status>", "only PENDING, SUCCESS, CANCEL or FAIL (expired unpaid) ones, any case")
    .option("--limit <n>", "how many, newest first (at most 100)", "50")
    .description("the user's checkouts with their states, newest first")
    .action((login: string, options: { status?: string; limit: string }) =>
      withDatabase(async (db) => {
        const status =
          options.status === undefined
            ? null
            : oneOf(options.status, ["PENDING", "SUCCESS", "CANCEL", "FAIL"], "--status");
        const items = await listCheckoutsOfLogin(db, login, {
          status,
          limit: parseCount(options.limit, "--limit", 1, 100),
        }).catch(nameArguments({ name: "<login>", value: login, field: "login", names: "user" }));
        const lines = items.map(
          (k) =>
            `${k.paymentId}\t${k.status}\t${k.amount} ${k.currency}\t${k.walletFrom} -> ${k.walletTo}\tcreated ${k.createdAt}\texpires ${k.expiredAt}${k.transactionId ? `\ttransaction ${k.transactionId}` : ""}`,
        );
        printResult(items, lines.length === 0 ? `No checkouts for ${login}.` : lines);
      }),
    );
  checkouts
    .command("expire")
    .description(
      "close checkouts whose link expired unpaid now (FAIL, merchant notified); purse serve does this every few seconds",
    )
    .action(() =>
      withDatabase(async (db) => {
        const config = readConfig();
        // The secret box opens the form token that signs each FAIL notification.
        const closed = await failAllExpiredCheckouts({
          db,
          secretBox: await openSecretBox(db, config.secretKey, config.previousSecretKeys),
          now: () => new Date(),
          events: inProcessEventBus(),
        });
        printResult(
          { closed },
          `Closed ${closed} expired checkout(s); a running purse serve delivers their FAIL notifications.`,
        );
      }),
    );
}
