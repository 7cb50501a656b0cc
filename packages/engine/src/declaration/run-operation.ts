import type { z } from "zod";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { contractRefusal } from "../input/contract-refusal.ts";
import { engineFor } from "../mode/engine-for.ts";
import type {
  CallContext,
  InputContract,
  OperationDeclaration,
  OperationInput,
} from "./declare-operation.ts";

/**
 * What a contract reads of what a door received: the contract is the whole validation (every
 * bound, blank and amount rule, with the catalogue's code), so `run` gets a parsed input. A
 * refusal is the catalogue's, on the field of the contract (`walletFrom`): each door spells it
 * as its wire does.
 */
export function parseContract<Contract extends z.ZodType>(
  contract: Contract,
  sent: unknown,
): z.output<Contract> {
  const parsed = contract.safeParse(sent, { reportInput: true });
  if (!parsed.success) throw contractRefusal(parsed.error.issues);
  return parsed.data;
}

function parseOperationInput(contract: InputContract, sent: unknown): OperationInput<InputContract> {
  return contract === null ? undefined : parseContract(contract, sent);
}

/**
 * Runs a declared operation on what a door received, under the contract's names: its input
 * parsed by its contract first (`parseOperationInput`), then the use case. Every door calls this,
 * not `run`, so no input reaches a use case unread; a refusal is the returned promise's, as the
 * use case's are.
 */
export async function runOperation<Output extends z.ZodType>(
  operation: Pick<OperationDeclaration<InputContract, Output>, "input" | "output" | "run">,
  deps: EngineDependencies,
  actor: Actor | null,
  sent: unknown,
  call: CallContext,
): Promise<z.input<Output>> {
  const input = parseOperationInput(operation.input, sent);
  return operation.run(deps, actor, input, call);
}

/**
 * The engine a public operation runs in: test mode's when the input field it names (`modeFrom`)
 * carries test mode's mark, the live one otherwise. Operations with a scope run in their caller's
 * (`resolveCaller`).
 */
export function engineOfPublicCall(
  deps: EngineDependencies,
  operation: Pick<OperationDeclaration, "modeFrom">,
  sent: unknown,
): EngineDependencies {
  if (operation.modeFrom === undefined || typeof sent !== "object" || sent === null) return deps;
  return engineFor(deps, (sent as Record<string, unknown>)[operation.modeFrom]);
}
