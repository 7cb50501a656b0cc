import { type Actor, authenticate, type EngineDependencies, PurseError } from "@purse/engine";
import { GraphQLError } from "graphql";

/** Sets and clears the dashboard's session cookie on this request's answer. */
export interface SessionCookie {
  set(token: string, expires: Date): Promise<void>;
  clear(): Promise<void>;
}

/**
 * Per request: the engine and the caller (resolved lazily, once). Batching loaders are per request
 * too, kept by the dataloader plugin on the types that load (Currency, WalletRef).
 */
export interface GraphQLContext {
  readonly deps: EngineDependencies;
  /** The caller's address as the host resolved it (PURSE_TRUST_PROXY), for the abuse limits. */
  readonly clientAddress: string | null;
  /** The request's `Idempotency-Key` header: money-moving mutations whose input names no key use it. */
  readonly idempotencyKey: string | null;
  /**
   * The bearer token as sent, or the session cookie's value when no Authorization header came
   * (a subscription verifies it again before each event).
   */
  readonly token: string | null;
  /** The caller authenticated by the dashboard's session cookie (checked for CSRF already). */
  readonly session: boolean;
  readonly sessionCookie: SessionCookie;
  actor(): Promise<Actor>;
}

export interface ContextRequest {
  readonly token: string | null;
  readonly session?: boolean;
  readonly clientAddress?: string | null;
  readonly idempotencyKey?: string | null;
  readonly sessionCookie?: SessionCookie;
}

const noCookies: SessionCookie = { set: async () => undefined, clear: async () => undefined };

export function createContext(deps: EngineDependencies, request: ContextRequest): GraphQLContext {
  let actor: Promise<Actor> | undefined;
  const resolveActor = () => {
    actor ??= authenticate(deps, request.token).catch((error: unknown) => {
      throw PurseError.is(error) ? unauthenticated() : error;
    });
    return actor;
  };
  return {
    deps,
    clientAddress: request.clientAddress ?? null,
    idempotencyKey: request.idempotencyKey ?? null,
    token: request.token,
    session: request.session ?? false,
    sessionCookie: request.sessionCookie ?? noCookies,
    actor: resolveActor,
  };
}

function unauthenticated(): GraphQLError {
  return new GraphQLError("Unauthorized", { extensions: { code: "UNAUTHORIZED", http: { status: 401 } } });
}
