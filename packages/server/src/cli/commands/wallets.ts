import { createWallet, listAllWallets, setWalletStatus } from "@purse/engine";
import type { Command } from "commander";
import { uniqueViolation } from "../../composition/explain-failure.ts";
import { type ListOptions, listFilter, printPage, withListOptions } from "../list-options.ts";
import { argumentError, nameArguments } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { printResult } from "../print-result.ts";
import { databaseInMode } from "../test-mode-database.ts";
import { withDatabase } from "../with-database.ts";

const statuses = ["NEW", "ACTIVE", "DELETED"] as const;

/** `purse wallets create | list | status`; credit and payout: operator-money.ts. */
export function registerWallets(program: Command): void {
  const wallets = program
    .command("wallets")
    .description("create and list wallets, credit them, pay out of them, change their status");
  wallets
    .command("create")
    .requiredOption("--user <login>", "the owner's login")
    .requiredOption("--currency <code>", "an enabled currency code, e.g. USD")
    .option("--limit <amount>", "the most the wallet may hold (amountLimit), decimal", "1000000")
    .option("--number <number>", "the wallet number (default: generated)")
    .option("--test", "a test wallet (its number starts with test_), for test credentials")
    .description("open a wallet for a user")
    .action((o: { user: string; currency: string; limit: string; number?: string; test?: boolean }) =>
      withDatabase(async (db) => {
        const number = await createWallet(await databaseInMode(db, o.test), {
          login: o.user,
          currency: o.currency,
          amountLimit: o.limit,
          ...(o.number ? { number: o.number } : {}),
        }).catch((error: unknown) => {
          // The number's owner row (migration 0022) is written first, so refuses a taken number first.
          if (
            o.number &&
            ["wallet_numbers_pkey", "wallets_number_key"].includes(uniqueViolation(error) ?? "")
          )
            throw argumentError("--number", o.number, "a wallet with this number exists");
          return nameArguments(
            { name: "--user", value: o.user, field: "login", names: "user" },
            { name: "--currency", value: o.currency, field: "currency", names: "currency" },
            { name: "--limit", value: o.limit, field: "amountLimit" },
          )(error);
        });
        printResult(
          { number, currency: o.currency, user: o.user },
          `Opened wallet ${number} (${o.currency}) for ${o.user}.`,
        );
      }),
    );
  withListOptions(wallets.command("list"), "number")
    .option("--user <login>", "only this user's wallets")
    .option("--currency <code>", "only wallets of this currency")
    .option("--status <status>", "only NEW, ACTIVE or DELETED ones")
    .description("wallets by number, with owner, balance, limit and status (DELETED ones included)")
    .action((o: ListOptions & { user?: string; currency?: string; status?: string }) =>
      withDatabase(async (db) => {
        const status = o.status === undefined ? undefined : oneOf(o.status, statuses, "--status");
        const page = await listAllWallets(db, {
          ...listFilter(o),
          ...(o.user === undefined ? {} : { login: o.user }),
          ...(o.currency === undefined ? {} : { currency: o.currency }),
          ...(status ? { status } : {}),
        }).catch(
          nameArguments(
            { name: "--user", value: o.user ?? "", field: "login", names: "user" },
            { name: "--currency", value: o.currency ?? "", field: "currency", names: "currency" },
          ),
        );
        printPage(
          page,
          (w) =>
            `${w.number}\t${w.status}\t${w.balance} ${w.currency}\tlimit ${w.amountLimit}\t${w.user}\tcreated ${w.createdAt}`,
          (w) => w.number,
          "No wallets.",
        );
      }),
    );
  wallets
    .command("status")
    .argument("<number>", "the wallet number")
    .argument("<status>", "NEW, ACTIVE or DELETED (any case)")
    .description("change a wallet's status")
    .action((number: string, given: string) =>
      withDatabase(async (db) => {
        const status = oneOf(given, statuses, "<status>");
        await setWalletStatus(db, number, status).catch(
          nameArguments({ name: "<number>", value: number, field: "wallet", names: "wallet" }),
        );
        printResult({ wallet: number, status }, `Wallet ${number} is ${status}.`);
      }),
    );
}
