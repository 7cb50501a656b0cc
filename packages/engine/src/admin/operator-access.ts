import { operatorNameOf, operatorScope } from "../auth/access-scope.ts";
import type { Actor } from "../auth/actor.ts";
import { findClientIds, insertAccessToken } from "../auth/credential-store.ts";
import { PurseError } from "../errors/index.ts";
import type { Database } from "../persistence/database.ts";
import { generateOpaqueToken, hashOpaqueToken } from "../secrets/index.ts";

/** The operator a token acts for, or SCOPE_MISSED (403) for any other token. */
export function operatorOf(actor: Actor): string {
  const name = operatorNameOf(actor);
  if (name === null) throw new PurseError("SCOPE_MISSED");
  return name;
}

export function isOperator(actor: Actor): boolean {
  return operatorNameOf(actor) !== null;
}

/** Issues an operator token through an existing API client (whose user the token belongs to). */
export async function issueOperatorToken(
  db: Database,
  request: { clientId: string; operator: string; lifetimeSeconds: number; now: Date },
): Promise<{ accessToken: string; expiresAt: Date; scope: string }> {
  const scope = `operator:${request.operator}`;
  // Refused on their fields: the operator command names the option each came from.
  if (!operatorScope.test(scope)) throw new PurseError("INVALID_VALUE", "operator");
  const client = await findClientIds(db.em(), request.clientId);
  if (!client) throw new PurseError("NOT_FOUND", "client");
  const accessToken = generateOpaqueToken("pat", client.userId);
  const expiresAt = new Date(request.now.getTime() + request.lifetimeSeconds * 1000);
  await insertAccessToken(db.em(), {
    tokenHash: hashOpaqueToken(accessToken),
    clientId: client.id,
    userId: client.userId,
    scope,
    expiresAt,
  });
  return { accessToken, expiresAt, scope };
}
