import {
  creditWallet,
  type Database,
  type EngineDependencies,
  type OperatorMovementResult,
  payOutWallet,
  refundForMerchant,
  reverseTransaction,
} from "@purse/engine";
import type { Command } from "commander";
import { argumentError, nameArguments, type TypedArgument } from "../name-arguments.ts";
import { operatorEngine, operatorKey, operatorName, operatorNameRule } from "../operator-engine.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

interface OperatorOptions {
  note?: string;
  amount?: string;
  reason?: string;
  key?: string;
  operator?: string;
}

/**
 * Operator verbs that move money: `wallets credit`, `wallets payout`, `transactions reverse` and
 * `transactions refund` (a paid checkout's money back to its payer, for its merchant). Each
 * runs through the movement pipeline, records who ran it, and takes an idempotency key (generated
 * and printed when absent) so a repeated run moves nothing twice.
 */
export function registerOperatorMoney(program: Command): void {
  const wallets =
    program.commands.find((command) => command.name() === "wallets") ?? program.command("wallets");
  withOperatorOptions(
    wallets
      .command("credit")
      .argument("<number>", "the wallet number")
      .argument("<amount>", 'decimal, e.g. "100.00"')
      .option("--note <text>", "description of the credit", "Operator credit")
      .description("credit a wallet from the currency's equity account (a balanced ledger movement)"),
  ).action((number: string, amount: string, o: OperatorOptions) =>
    runVerb(
      o,
      (deps, who) => creditWallet(deps, { number, amount, note: o.note ?? "", ...who }),
      () => [{ wallet: number, amount }, `Credited ${amount} to ${number}`],
      [
        { name: "<number>", value: number, field: "wallet_to", names: "wallet" },
        { name: "<amount>", value: amount, field: "amount" },
      ],
    ),
  );
  withOperatorOptions(
    wallets
      .command("payout")
      .argument("<number>", "the wallet number")
      .argument("<amount>", 'decimal, e.g. "100.00"')
      .option("--note <text>", "description of the payout (e.g. the bank reference)", "Operator payout")
      .description("pay money out of a wallet to the outside world (WITHDRAW, type 3; back to equity)"),
  ).action((number: string, amount: string, o: OperatorOptions) =>
    runVerb(
      o,
      (deps, who) => payOutWallet(deps, { number, amount, note: o.note ?? "", ...who }),
      () => [{ wallet: number, amount }, `Paid out ${amount} from ${number}`],
      [
        { name: "<number>", value: number, field: "wallet_from", names: "wallet" },
        { name: "<amount>", value: amount, field: "amount" },
      ],
    ),
  );

  const transactions =
    program.commands.find((command) => command.name() === "transactions") ??
    program.command("transactions").description("correct the ledger with compensating transactions");
  withOperatorOptions(
    transactions
      .command("reverse")
      .argument("<id>", "the transaction to reverse")
      .option("--note <text>", "why it is reversed")
      .description("reverse a transaction with a compensating one (the original is never edited)"),
  ).action((id: string, o: OperatorOptions) =>
    runVerb(
      o,
      (deps, who) => {
        if (!/^[1-9]\d{0,15}$/.test(id)) throw argumentError("<id>", id, "not a transaction id");
        return reverseTransaction(deps, {
          transactionId: Number(id),
          note: o.note ?? `Reversal of transaction ${id}`,
          ...who,
        });
      },
      () => [{ reverses: Number(id) }, `Reversed transaction ${id}`],
      [{ name: "<id>", value: id, field: "transaction", names: "transaction" }],
    ),
  );
  registerRefund(transactions);
}

/** `purse transactions refund <id>`: the merchant's refund, run by an operator (docs/operations.md). */
function registerRefund(transactions: Command): void {
  withOperatorOptions(
    transactions
      .command("refund")
      .argument("<id>", "the paid checkout's transaction id")
      .option("--amount <amount>", 'decimal, e.g. "5.00" (default: all that may still be refunded)')
      .option("--reason <text>", "why, at most 255 characters (the refund's description)", "")
      .description("refund a paid checkout to its payer from its merchant's wallet, wholly or in part"),
  ).action((id: string, o: OperatorOptions) =>
    runVerb(
      o,
      async (deps, who) => {
        if (!/^[1-9]\d{0,15}$/.test(id)) throw argumentError("<id>", id, "not a transaction id");
        const refund = await refundForMerchant(deps, {
          transactionId: Number(id),
          amount: o.amount ?? null,
          reason: o.reason ?? "",
          ...who,
        });
        return { ...refund, transactionId: refund.id };
      },
      (refund) => [
        { refund_of: refund.refundOf, amount: refund.amount, refundable: refund.refundable },
        `Refunded ${refund.amount} of transaction ${id}; ${refund.refundable} may still be refunded`,
      ],
      [
        { name: "<id>", value: id, field: "transactionId", names: "transaction" },
        { name: "--amount", value: o.amount ?? "", field: "amount" },
        { name: "--reason", value: o.reason ?? "", field: "reason" },
      ],
    ),
  );
}

function withOperatorOptions(command: Command): Command {
  return command
    .option(
      "--key <key>",
      "idempotency key: the same key never moves money twice (default: generated, printed)",
    )
    .option("--operator <name>", "who runs this, recorded on the transaction (default: the OS user)");
}

function runVerb<Result extends OperatorMovementResult>(
  options: OperatorOptions,
  verb: (deps: EngineDependencies, who: { operator: string; key: string }) => Promise<Result>,
  describe: (result: Result) => [Record<string, unknown>, string],
  args: TypedArgument[],
): Promise<void> {
  return withDatabase(async (db: Database) => {
    const engine = await operatorEngine(db);
    try {
      const { key, generated } = operatorKey(options.key);
      const operator = operatorName(options.operator);
      // Through a promise: the engine refuses a bad operator name or key before it returns one.
      const result = await Promise.resolve()
        .then(() => verb(engine.deps, { operator, key }))
        .catch(
          nameArguments(
            ...args,
            { name: "--operator", value: operator, field: "operator", takes: operatorNameRule },
            {
              name: "--key",
              value: key,
              field: "key",
              takes: "1 to 200 printable ASCII characters, no spaces",
            },
          ),
        );
      const [data, text] = describe(result);
      printResult(
        { ...data, transaction_id: result.transactionId, replayed: result.replayed, key, operator },
        [
          result.replayed
            ? `Key ${key} was already used for this: transaction ${result.transactionId}; nothing moved again.`
            : `${text} (transaction ${result.transactionId}, by ${operator}).`,
          ...(generated ? [`Idempotency key ${key}: repeat with --key ${key} to be sure it runs once.`] : []),
        ],
      );
    } finally {
      await engine.close();
    }
  });
}
