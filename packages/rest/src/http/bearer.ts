import { type Actor, authenticate, type EngineDependencies } from "@purse/engine";
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `bearerAuth` before the body is validated, so a bad token is 401 whatever the body. */
    actor?: Actor;
  }
}

/** Resolves `Authorization: Bearer <token>` to the caller; anything else is 401 Unauthorized. */
export function bearerAuth(deps: EngineDependencies): onRequestAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    request.actor = await authenticate(deps, match?.[1] ?? null);
  };
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error("bearerAuth must run before this handler");
  return request.actor;
}
