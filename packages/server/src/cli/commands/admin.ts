import {
  createClient,
  createUser,
  createWallet,
  issueVoucher,
  openSecretBox,
  setCurrencyFlag,
  setUserBlocked,
  setWalletStatus,
} from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { parseCount } from "../parse-count.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** Operator verbs: users, clients, wallets, vouchers and currency switches. */
export function registerAdmin(program: Command, clients: Command): void {
  const users = program.command("users").description("create users, block and unblock them");
  users
    .command("create")
    .requiredOption("--login <login>", "the sign-in name, unique")
    .requiredOption("--password <password>", "the sign-in password (stored as a hash)")
    .requiredOption("--name <name>", "the display name")
    .option("--role <role>", "merchant or partner", "merchant")
    .description("create a user who can sign in on the payment page and own wallets")
    .action((o: { login: string; password: string; name: string; role: string }) =>
      withDatabase(async (db) => {
        if (o.role !== "merchant" && o.role !== "partner")
          throw new Error("--role takes merchant or partner");
        const id = await createUser(db, { login: o.login, password: o.password, name: o.name, role: o.role });
        printResult({ id, login: o.login, role: o.role }, `Created ${o.role} ${o.login} (user ${id}).`);
      }),
    );
  for (const [verb, blocked] of [
    ["block", true],
    ["unblock", false],
  ] as const) {
    users
      .command(verb)
      .argument("<login>", "the user's login")
      .description(`${verb} a user (blocked users cannot pay or be paid)`)
      .action((login: string) =>
        withDatabase(async (db) => {
          await setUserBlocked(db, login, blocked).catch(() => {
            throw new Error(`No user with login "${login}"`);
          });
          printResult({ login, blocked }, `${login} is ${blocked ? "blocked" : "unblocked"}.`);
        }),
      );
  }

  clients
    .command("create")
    .requiredOption("--user <login>", "the user the client acts for")
    .description("issue API credentials (shown once: store them now)")
    .action((o: { user: string }) =>
      withDatabase(async (db) => {
        const issued = await createClient(db, await openSecretBox(db, readConfig().secretKey), o.user);
        printResult(
          {
            client_id: issued.clientId,
            client_secret: issued.clientSecret,
            form_token: issued.formToken,
            webhook_secret: issued.webhookSecret,
          },
          [
            `client_id      ${issued.clientId}`,
            `client_secret  ${issued.clientSecret}`,
            `form_token     ${issued.formToken}`,
            `webhook_secret ${issued.webhookSecret}`,
          ],
        );
      }),
    );

  const wallets = program.command("wallets").description("create wallets, credit them, change their status");
  wallets
    .command("create")
    .requiredOption("--user <login>", "the owner's login")
    .requiredOption("--currency <code>", "an enabled currency code, e.g. USD")
    .option("--limit <amount>", "the most the wallet may hold (amountLimit), decimal", "1000000")
    .option("--number <number>", "the wallet number (default: generated)")
    .description("open a wallet for a user")
    .action((o: { user: string; currency: string; limit: string; number?: string }) =>
      withDatabase(async (db) => {
        const number = await createWallet(db, {
          login: o.user,
          currency: o.currency,
          amountLimit: o.limit,
          ...(o.number ? { number: o.number } : {}),
        });
        printResult(
          { number, currency: o.currency, user: o.user },
          `Opened wallet ${number} (${o.currency}) for ${o.user}.`,
        );
      }),
    );
  // credit and payout: commands/operator-money.ts (idempotent, attributed to an operator).
  wallets
    .command("status")
    .argument("<number>", "the wallet number")
    .argument("<status>", "NEW, ACTIVE or DELETED")
    .description("change a wallet's status")
    .action((number: string, status: string) =>
      withDatabase(async (db) => {
        if (status !== "NEW" && status !== "ACTIVE" && status !== "DELETED") {
          throw new Error("status is NEW, ACTIVE or DELETED");
        }
        await setWalletStatus(db, number, status).catch(() => {
          throw new Error(`No wallet ${number}`);
        });
        printResult({ wallet: number, status }, `Wallet ${number} is ${status}.`);
      }),
    );

  const vouchers = program.command("vouchers").description("issue vouchers");
  vouchers
    .command("issue")
    .requiredOption("--currency <code>", "the voucher's currency, e.g. USD")
    .requiredOption("--amount <amount>", 'its value, decimal, e.g. "20.00"')
    .requiredOption("--creator <login>", "the partner or merchant who bought it")
    .option("--type <type>", "1 bought by a partner, 2 bought by a merchant", "1")
    .option("--days <days>", "valid for this many days", "30")
    .description("issue a paid voucher (the code is shown once)")
    .action((o: { currency: string; amount: string; creator: string; type: string; days: string }) =>
      withDatabase(async (db) => {
        if (o.type !== "1" && o.type !== "2") throw new Error("--type is 1 or 2");
        const issued = await issueVoucher(db, await openSecretBox(db, readConfig().secretKey), {
          currency: o.currency,
          amount: o.amount,
          type: o.type === "1" ? 1 : 2,
          creatorLogin: o.creator,
          expiresAt: new Date(Date.now() + parseCount(o.days, "--days", 1, 3_650) * 86_400_000),
        });
        printResult({ voucher_number: issued.number, voucher_code: issued.code }, [
          `voucher_number ${issued.number}`,
          `voucher_code   ${issued.code}`,
        ]);
      }),
    );

  const currencies = program.command("currencies").description("enable or disable a currency or a direction");
  for (const [verb, on] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    currencies
      .command(verb)
      .argument("<code>", "the currency code, e.g. EUR")
      .option("--direction <direction>", "only checkout or transfer")
      .description(`${verb} a currency, or one direction of it`)
      .action((code: string, o: { direction?: string }) =>
        withDatabase(async (db) => {
          const flag = o.direction ?? "enabled";
          if (flag !== "enabled" && flag !== "checkout" && flag !== "transfer") {
            throw new Error("--direction is checkout or transfer");
          }
          await setCurrencyFlag(db, code, flag, on).catch(() => {
            throw new Error(`No currency ${code}`);
          });
          printResult(
            { currency: code, direction: o.direction ?? null, enabled: on },
            `${code}${o.direction ? ` ${o.direction}` : ""} ${on ? "enabled" : "disabled"}.`,
          );
        }),
      );
  }
}
