import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { findUser } from "../auth/user-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";

/** The caller's own user row: id, name, role and whether it is blocked (GraphQL's and tRPC's `me`: `me-show.operation.ts`). */
export interface UserProfile {
  readonly id: number;
  readonly name: string;
  readonly role: "merchant" | "partner";
  readonly blocked: boolean;
}

export async function getProfile(deps: EngineDependencies, actor: Actor): Promise<UserProfile> {
  requireAccess(actor); // an operator token (no api scope) is not the user: 403, as on every REST route
  const row = await deps.db.fresh((em) => findUser(em, actor.userId));
  if (!row) throw new Error(`user ${actor.userId} behind a valid token is gone`);
  return { id: row.id, name: row.name, role: row.role, blocked: row.blocked };
}
