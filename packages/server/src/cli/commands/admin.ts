import { issueVoucher, openSecretBox, setCurrencyFlag } from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { deprecatedOption, warnDeprecated } from "../deprecated-option.ts";
import { nameArguments } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { parseCount } from "../parse-count.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

const hour = 3_600_000;
const day = 24 * hour;

/** Operator verbs: vouchers and currency switches (users, clients, wallets: their own files). */
export function registerAdmin(program: Command): void {
  const vouchers = program.command("vouchers").description("issue vouchers");
  vouchers
    .command("issue")
    .requiredOption("--currency <code>", "the voucher's currency, e.g. USD")
    .requiredOption("--amount <amount>", 'its value, decimal, e.g. "20.00"')
    .requiredOption("--creator <login>", "the partner or merchant who bought it")
    .option("--type <type>", "1 bought by a partner, 2 bought by a merchant", "1")
    .option("--valid-for <duration>", "how long it can be activated, 1h to 3650d (e.g. 30d, 12h)", "30d")
    .addOption(deprecatedOption("--days <days>", "--valid-for 30d"))
    .description("issue a paid voucher (the code is shown once)")
    .action(
      (o: {
        currency: string;
        amount: string;
        creator: string;
        type: string;
        validFor: string;
        days?: string;
      }) =>
        withDatabase(async (db) => {
          if (o.type !== "1" && o.type !== "2")
            throw new Error(`--type takes 1 or 2 (got ${JSON.stringify(o.type)})`);
          const validFor = voucherValidity(o);
          const issued = await issueVoucher(db, await openSecretBox(db, readConfig().secretKey), {
            currency: o.currency,
            amount: o.amount,
            type: o.type === "1" ? 1 : 2,
            creatorLogin: o.creator,
            expiresAt: new Date(Date.now() + validFor),
          }).catch(
            nameArguments(
              { name: "--creator", value: o.creator, field: "login", names: "user" },
              { name: "--currency", value: o.currency, field: "currency", names: "currency" },
              { name: "--amount", value: o.amount, field: "amount" },
            ),
          );
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
          const direction =
            o.direction === undefined
              ? undefined
              : oneOf(o.direction, ["checkout", "transfer"], "--direction");
          await setCurrencyFlag(db, code, direction ?? "enabled", on).catch(
            nameArguments({ name: "<code>", value: code, field: "currency", names: "currency" }),
          );
          printResult(
            { currency: code, direction: direction ?? null, enabled: on },
            `${code}${direction ? ` ${direction}` : ""} ${on ? "enabled" : "disabled"}.`,
          );
        }),
      );
  }
}

/** --valid-for, or the deprecated --days; milliseconds. */
function voucherValidity(o: { validFor: string; days?: string }): number {
  if (o.days === undefined) {
    const validFor = parseDuration(o.validFor, "--valid-for");
    if (validFor < hour || validFor > 3_650 * day)
      throw new Error(`--valid-for takes a duration from 1h to 3650d (got "${o.validFor}")`);
    return validFor;
  }
  warnDeprecated("--days", "--valid-for (e.g. --valid-for 30d)");
  return parseCount(o.days, "--days", 1, 3_650) * day;
}
