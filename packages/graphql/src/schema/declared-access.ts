// What every declared field asks of the request: who may call it, the caller, the call context.
import {
  type Actor,
  type AnyOperation,
  type CallContext,
  type EngineDependencies,
  engineOfPublicCall,
  PurseError,
  scopesOf,
} from "@purse/engine";
import type { GraphQLContext } from "../context.ts";
import type { Binding } from "./operation-binding.ts";

/** A declaration as GraphQL publishes it: the operation and its names (`bindingOf`). */
export interface Published {
  readonly operation: AnyOperation;
  readonly graphql: Binding;
}

/** Who may call the field, by scope-auth: any of the declared scopes; nothing for a public one. */
export function authScopesOf(operation: AnyOperation) {
  const scopes = scopesOf(operation.scope);
  return scopes ? { authScopes: Object.fromEntries(scopes.map((scope) => [scope, true])) } : {};
}

/**
 * The caller the operation runs for and the engine of their mode: none for a public one (no token
 * is asked for), which runs in the mode its input names (a `test_` wallet: test mode's).
 */
export async function callerFor(
  operation: AnyOperation,
  ctx: GraphQLContext,
  input: unknown,
): Promise<{ deps: EngineDependencies; actor: Actor | null }> {
  if (operation.sessionOnly) {
    // The dashboard's session only, on its live engine whatever the switch says: never a bearer token.
    if (!ctx.session) throw new PurseError("SCOPE_MISSED");
    return { deps: ctx.deps, actor: (await ctx.caller()).actor };
  }
  if (scopesOf(operation.scope)) return ctx.caller();
  const deps = engineOfPublicCall(ctx.deps, operation, input);
  if (deps.db.mode === "test") ctx.answeredTestData();
  return { deps, actor: null };
}

/** The request as the operation may need it: GraphQL's input fields are text, never bare numbers. */
export function callOf(ctx: GraphQLContext): CallContext {
  return { clientAddress: ctx.clientAddress, amountSentAsNumber: false };
}
