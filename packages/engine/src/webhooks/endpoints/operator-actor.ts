import type { Actor } from "../../auth/actor.ts";
import { apiScope } from "../../auth/issue-token.ts";
import { findUser, userIdByLogin } from "../../auth/user-store.ts";
import { PurseError } from "../../errors/index.ts";
import type { Database } from "../../persistence/database.ts";
import { toId } from "../../persistence/sql.ts";
import { findEndpointOwner } from "./endpoint-store.ts";

/**
 * The CLI's operator acts on a user's endpoints and events as that user would over the API (the
 * same owner-checked use cases): found by login, or as the owner of an endpoint id.
 */
export async function actorForLogin(db: Database, login: string): Promise<Actor> {
  return actorOf(db, await userIdByLogin(db, login));
}

export async function actorForEndpoint(db: Database, endpointId: string): Promise<Actor> {
  const owner = await findEndpointOwner(db.em(), endpointId);
  if (!owner) throw new PurseError("NOT_FOUND", "endpoint");
  return actorOf(db, toId(owner.user_id));
}

async function actorOf(db: Database, userId: number): Promise<Actor> {
  const user = await findUser(db.em(), userId);
  if (!user) throw new PurseError("NOT_FOUND");
  return { userId, role: user.role, clientId: null, scope: apiScope };
}
