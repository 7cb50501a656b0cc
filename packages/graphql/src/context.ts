import { type Actor, authenticate, type EngineDependencies, PurseError } from "@purse/engine";
import { GraphQLError } from "graphql";

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
  /** The bearer token as sent (a subscription verifies it again before each event). */
  readonly token: string | null;
  actor(): Promise<Actor>;
}

export function createContext(
  deps: EngineDependencies,
  authorization: string | null,
  clientAddress: string | null = null,
  idempotencyKey: string | null = null,
): GraphQLContext {
  let actor: Promise<Actor> | undefined;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? null;
  const resolveActor = () => {
    actor ??= authenticate(deps, token).catch((error: unknown) => {
      throw PurseError.is(error) ? unauthenticated() : error;
    });
    return actor;
  };
  return { deps, clientAddress, idempotencyKey, token, actor: resolveActor };
}

function unauthenticated(): GraphQLError {
  return new GraphQLError("Unauthorized", { extensions: { code: "UNAUTHORIZED", http: { status: 401 } } });
}
