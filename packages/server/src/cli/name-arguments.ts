import { PurseError } from "@purse/engine";
import { OperatorError } from "../composition/explain-failure.ts";

/** One argument or option of a verb, as the operator typed it, and the engine field it feeds. */
export interface TypedArgument {
  /** As --help spells it: `--user`, `<number>`. */
  readonly name: string;
  readonly value: string;
  /** The field the engine names in a refusal about it (PurseError.field). */
  readonly field: string;
  /** What its value names (user, wallet, client, currency), for "no such ...". */
  readonly names?: "user" | "wallet" | "client" | "currency" | "transaction";
  /** What a valid value looks like, for a refusal of its form (INVALID_VALUE). */
  readonly takes?: string;
}

/** `--user "nobody": no such user`: the argument, the value given, what is wrong with it. */
export function argumentError(name: string, value: string, problem: string): OperatorError {
  return new OperatorError(`${name} ${JSON.stringify(value)}: ${problem}`);
}

/**
 * A `.catch` handler: the engine's refusal about one of `args` (by its field; a NOT_FOUND without
 * one is about the first) comes back naming that argument and its value. Anything else passes on.
 */
export function nameArguments(...args: TypedArgument[]): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof PurseError)) throw error;
    const argument =
      error.field === undefined
        ? error.code === "NOT_FOUND"
          ? args[0]
          : undefined
        : args.find((each) => each.field === error.field);
    if (argument === undefined) throw error;
    throw argumentError(argument.name, argument.value, problem(error, argument));
  };
}

const listVerbs: Partial<Record<NonNullable<TypedArgument["names"]>, string>> = {
  user: "purse users list",
  wallet: "purse wallets list",
  client: "purse clients list",
};

function problem(error: PurseError, argument: TypedArgument): string {
  const list = argument.names ? listVerbs[argument.names] : undefined;
  const seeList = list ? ` (${list} shows them)` : "";
  switch (error.code) {
    case "NOT_FOUND":
      return `no such ${argument.names ?? "record"}${seeList}`;
    // The API's texts ("Wallet to not exists") name a request field the operator never typed.
    case "WALLET_TO_NOT_EXISTS":
    case "WALLET_FROM_NOT_EXISTS":
      return `no such wallet, or it is DELETED${seeList}`;
    case "INVALID_VALUE":
      return argument.takes ? `takes ${argument.takes}` : error.message;
    default:
      return error.message;
  }
}
