import { type Actor, authenticate, type EngineDependencies, requireAccess } from "@purse/engine";
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `bearerAuth` before the body is parsed, so a bad token is 401 whatever the body. */
    actor?: Actor;
  }
}

/**
 * Resolves `Authorization: Bearer <token>` to the caller; anything else is 401 Unauthorized. A
 * valid token without the API scope is 403 Sorry scope missed on every bearer route; the use
 * cases then apply their own role rules (history: merchants only).
 */
export function bearerAuth(deps: EngineDependencies): onRequestAsyncHookHandler {
  return async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
    const actor = await authenticate(deps, match?.[1] ?? null);
    requireAccess(actor);
    request.actor = actor;
  };
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error("bearerAuth must run before this handler");
  return request.actor;
}
