import {
  type AccessScope,
  type Actor,
  csrfRefusalMessages,
  type EngineDependencies,
  requestCredential,
  requireAccess,
  requireScope,
  resolveCaller,
  testEngineOf,
} from "@purse/engine";
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { errorBody } from "./error-body.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `bearerAuth` before the body is parsed, so a bad token is 401 whatever the body. */
    actor?: Actor;
    /** The engine of the caller's mode (test mode's for a `test_` token), set with `actor`. */
    engine?: EngineDependencies;
    /** The caller came with the dashboard's session cookie, not a bearer token (`bearerOrSessionAuth`). */
    viaSession?: boolean;
  }
}

/**
 * Resolves `Authorization: Bearer <token>` to the caller; anything else is 401 Unauthorized. A
 * valid token without the API scope is 403 Sorry scope missed on every bearer route; the use
 * cases then apply their own role rules (history: merchants only). A declared operation passes
 * its own scopes instead, any of which lets the caller in (an operator's token holds no API scope).
 */
export function bearerAuth(
  deps: EngineDependencies,
  scopes?: readonly AccessScope[],
): onRequestAsyncHookHandler {
  return async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
    const { actor, deps: engine } = await resolveCaller(deps, match?.[1] ?? null);
    if (scopes) requireScope(actor, scopes);
    else requireAccess(actor);
    request.actor = actor;
    request.engine = engine;
  };
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error("bearerAuth must run before this handler");
  return request.actor;
}

/** The engine of the caller's mode, as `bearerAuth` resolved it. */
export function engineOf(request: FastifyRequest): EngineDependencies {
  if (!request.engine) throw new Error("bearerAuth must run before this handler");
  return request.engine;
}

/**
 * A bearer token, or else the dashboard's session cookie (a plain download link from the dashboard
 * carries no header of its own). The cookie is refused from another origin or site
 * (`Sec-Fetch-Site`): 403 before anything runs. Used only by read-only GET routes (the CSV export).
 */
export function bearerOrSessionAuth(deps: EngineDependencies): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const { credential, refusal } = requestCredential(
      {
        authorization: request.headers.authorization ?? null,
        cookie: request.headers.cookie ?? null,
        csrf: null,
        fetchSite: headerText(request.headers["sec-fetch-site"]),
      },
      { requireCsrfHeader: false },
    );
    if (refusal !== null) return reply.code(403).send(errorBody(refusal, csrfRefusalMessages[refusal]));
    const { actor, deps: engine } = await resolveCaller(
      deps,
      credential.kind === "none" ? null : credential.token,
    );
    requireAccess(actor);
    request.actor = actor;
    request.engine = engine;
    request.viaSession = credential.kind === "session";
  };
}

/**
 * The dashboard's test-mode switch on a plain download (`mode=test`): the signed-in merchant's test
 * data on their test clock. Only with the session cookie: a bearer token's mode is its own, so a
 * live API token never reaches test data this way.
 */
export async function sessionEngineOf(
  request: FastifyRequest,
  mode: "test" | undefined,
): Promise<EngineDependencies> {
  return mode === "test" && request.viaSession
    ? testEngineOf(engineOf(request), actorOf(request).userId)
    : engineOf(request);
}

function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
