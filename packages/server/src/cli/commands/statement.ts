import {
  csvLines,
  csvText,
  type StatementLine,
  statementBound,
  type WalletStatement,
  walletStatement,
} from "@purse/engine";
import type { Command } from "commander";
import { nameArguments } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { isJsonOutput } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse statement WALLET --from --to --format json|csv`: a statement that reconciles. */
export function registerStatement(program: Command): void {
  program
    .command("statement")
    .argument("<wallet>", "the wallet number")
    .requiredOption("--from <date>", "first day (YYYY-MM-DD, UTC) or an ISO 8601 instant")
    .option(
      "--to <date>",
      "last day, inclusive (YYYY-MM-DD), or an ISO 8601 instant (exclusive); default now",
    )
    .option("--format <format>", "json or csv", "json")
    .description("a wallet's statement: opening balance, each movement with its fees, closing balance")
    .action((number: string, o: { from: string; to?: string; format: string }) =>
      withDatabase(async (db) => {
        const format = oneOf(o.format, ["json", "csv"], "--format");
        const from = parseInstant(o.from, "--from", false);
        const to = o.to === undefined ? new Date() : parseInstant(o.to, "--to", true);
        const statement = await walletStatement(db, { number, from, to }).catch((error: unknown) => {
          if (error instanceof Error && error.message.includes("not a valid date"))
            throw new Error("--to must be after --from");
          return nameArguments({ name: "<wallet>", value: number, field: "wallet", names: "wallet" })(error);
        });
        process.stdout.write(
          format === "csv" && !isJsonOutput() ? toCsv(statement) : `${JSON.stringify(statement, null, 2)}\n`,
        );
      }),
    );
}

/** `statementBound`, its refusal worded for the command line. */
function parseInstant(text: string, option: string, end: boolean): Date {
  try {
    return statementBound(text, option, end);
  } catch {
    throw new Error(`${option} "${text}" is not a date (YYYY-MM-DD) or an ISO 8601 instant`);
  }
}

const columns: (keyof StatementLine)[] = [
  "transactionId",
  "at",
  "typeName",
  "status",
  "label",
  "description",
  "amount",
  "fee",
  "balanceAfter",
  "operator",
  "reversesTransactionId",
];

/** The columns that hold free text (an operator's label or note, a payer's description). */
const textColumns = new Set<keyof StatementLine>(["label", "description", "operator"]);

/** RFC 4180: opening and closing balances as their own rows around the movements. */
function toCsv(statement: WalletStatement): string {
  const header = [
    "transaction_id",
    "at",
    "type",
    "status",
    "label",
    "description",
    "amount",
    "fee",
    "balance_after",
    "operator",
    "reverses",
  ];
  return csvLines([
    header,
    ["", statement.from, "OPENING", "", "Opening balance", "", "", "", statement.openingBalance, "", ""],
    ...statement.lines.map((line) =>
      columns.map((column) => {
        const value = String(line[column] ?? "");
        return textColumns.has(column) ? csvText(value) : value;
      }),
    ),
    ["", statement.to, "CLOSING", "", "Closing balance", "", "", "", statement.closingBalance, "", ""],
  ]);
}
