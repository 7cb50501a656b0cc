import {
  type Actor,
  type Caller,
  type EngineDependencies,
  engineFor,
  PurseError,
  resolveCaller,
  testEngineOf,
} from "@purse/engine";
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
  /**
   * The engine of the mode the token names, on real time: for what needs no caller (sign-in,
   * currencies, a public operation's own mode). Whatever acts for the caller takes `caller()`'s.
   */
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
  /** The dashboard's test-mode switch is on: a session reads and acts on its test data. */
  readonly testMode: boolean;
  actor(): Promise<Actor>;
  /** The caller and the engine of their mode (on their test clock in test mode), resolved once. */
  caller(): Promise<Caller>;
  /** A public operation of this request ran in test mode (a `test_` wallet): the answer says so. */
  answeredTestData(): void;
  /** Whether this request's answer is about test data (its token, the switch, or a public call). */
  aboutTestData(): boolean;
}

export interface ContextRequest {
  readonly token: string | null;
  readonly session?: boolean;
  readonly clientAddress?: string | null;
  readonly idempotencyKey?: string | null;
  readonly sessionCookie?: SessionCookie;
  /**
   * The dashboard's switch (`Purse-Mode: test`): honoured for its session cookie only, never for a
   * bearer token, so a live API token can never reach test data, nor a test one live data.
   */
  readonly testMode?: boolean;
}

const noCookies: SessionCookie = { set: async () => undefined, clear: async () => undefined };

export function createContext(live: EngineDependencies, request: ContextRequest): GraphQLContext {
  const testMode = request.session === true && request.testMode === true;
  const deps = engineFor(live, request.token);
  let testData = testMode || deps.db.mode === "test";
  let caller: Promise<Caller> | undefined;
  const resolve = () => {
    caller ??= resolveCaller(live, request.token)
      .then(async (found) =>
        testMode ? { actor: found.actor, deps: await testEngineOf(live, found.actor.userId) } : found,
      )
      .catch((error: unknown) => {
        throw PurseError.is(error) ? unauthenticated() : error;
      });
    return caller;
  };
  return {
    deps,
    clientAddress: request.clientAddress ?? null,
    idempotencyKey: request.idempotencyKey ?? null,
    token: request.token,
    session: request.session ?? false,
    sessionCookie: request.sessionCookie ?? noCookies,
    testMode,
    actor: async () => (await resolve()).actor,
    caller: resolve,
    answeredTestData: () => {
      testData = true;
    },
    aboutTestData: () => testData,
  };
}

function unauthenticated(): GraphQLError {
  return new GraphQLError("Unauthorized", { extensions: { code: "UNAUTHORIZED", http: { status: 401 } } });
}
