import { PurseError } from "../errors/index.ts";
import type { Actor, Role } from "./actor.ts";
import { apiScope } from "./issue-token.ts";

/**
 * Who may call an operation, as every door declares it (GraphQL's scope-auth, tRPC's middleware):
 * `user` an API token or dashboard session of a merchant or partner, `merchant` the same for
 * merchants only, `operator` an operator token (`purse operators token`), which is not a user.
 * The use cases check their actor again; a door that declares the same scope refuses the same
 * callers before any work, with the same SCOPE_MISSED.
 */
export type AccessScope = "user" | "merchant" | "operator";

/**
 * Operator access over the API, kept minimal: an access token whose scope is `operator:<name>`,
 * issued only from the command line (`purse operators token`), short-lived, stored hashed like
 * every token. It is not an `api` token, so it cannot pay or transfer; only operator fields accept
 * it, and the name in it is what the ledger records as the operator.
 */
export const operatorScope = /^operator:([\w.@-]{1,64})$/;

/** The operator a token acts for, or null for any other token. */
export function operatorNameOf(actor: Actor): string | null {
  for (const scope of actor.scope.split(/\s+/)) {
    const name = operatorScope.exec(scope)?.[1];
    if (name) return name;
  }
  return null;
}

/** Whether the token may act as its user (the `api` scope) in one of these roles. */
export function mayActAsUser(actor: Actor, roles: readonly Role[]): boolean {
  return actor.scope.split(/\s+/).includes(apiScope) && roles.includes(actor.role);
}

export function holdsScope(actor: Actor, scope: AccessScope): boolean {
  switch (scope) {
    case "user":
      return mayActAsUser(actor, ["merchant", "partner"]);
    case "merchant":
      return mayActAsUser(actor, ["merchant"]);
    case "operator":
      return operatorNameOf(actor) !== null;
  }
}

/** The spec's 403 when the actor holds none of the scopes. */
export function requireScope(actor: Actor, scopes: readonly AccessScope[]): void {
  if (!scopes.some((scope) => holdsScope(actor, scope))) throw new PurseError("SCOPE_MISSED");
}
