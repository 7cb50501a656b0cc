import {
  type Actor,
  asPurseError,
  bearerToken,
  type EngineDependencies,
  type ErrorKind,
  engineFor,
  PurseError,
  requireScope,
  resolveCaller,
  ruleRefusal,
  testEngineOf,
} from "@purse/engine";
import { refusedFieldName } from "@purse/http-kernel";
import { initTRPC, type TRPCDefaultErrorShape, TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { type TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";

export interface TrpcContext {
  readonly deps: EngineDependencies;
  /** The Authorization header, or over WebSocket the `authorization` of the connectionParams. */
  readonly authorization: string | null;
  /**
   * The dashboard's session cookie, when no Authorization header came and the request passed
   * the engine's CSRF rule (requestCredential); never set on a WebSocket.
   */
  readonly sessionToken?: string | null;
  /**
   * Over WebSocket: only subscriptions run (queries and mutations go over HTTP), and at most
   * `max` of them at once on the connection (its context is shared by all its calls).
   */
  readonly socket?: { readonly maxSubscriptions: number; open: number };
  /** The caller's address as the host resolved it (PURSE_TRUST_PROXY), for the abuse limits. */
  readonly clientAddress?: string | null;
  /** The request's `Idempotency-Key` header: money-moving mutations whose input names no key use it. */
  readonly idempotencyKey?: string | null;
  /**
   * The dashboard's test-mode switch (`Purse-Mode: test`): honoured with its session cookie only,
   * never with a bearer token, so no API token crosses modes.
   */
  readonly testMode?: boolean;
}

/** Engine error kinds to tRPC codes; a new kind without a code here does not compile. */
const codeByKind: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  validation: "UNPROCESSABLE_CONTENT",
  unauthenticated: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict_busy: "CONFLICT",
  unavailable: "SERVICE_UNAVAILABLE",
  oauth: "BAD_REQUEST",
};

/**
 * Purse's error shape: tRPC's default shape with the engine error's spec text, code, field and
 * translation; unexpected errors never show their text, and no stack ever leaves.
 */
function purseErrorShape({ shape, error }: { shape: TRPCDefaultErrorShape; error: TRPCError }) {
  const purse = PurseError.is(error.cause) ? error.cause : null;
  return {
    ...shape,
    message: purse
      ? purse.message
      : error.code === "INTERNAL_SERVER_ERROR"
        ? "Internal server error"
        : shape.message,
    data: {
      ...shape.data,
      stack: undefined,
      purseCode: purse?.code ?? null,
      field: purse?.field ? refusedFieldName(purse.field) : null,
      translation: purse?.translation ?? null,
    },
  };
}

/**
 * The shape tRPC sends for `error` (its default shape, as its docs on error formatting describe
 * it, through Purse's formatter), for a refusal made before tRPC saw the request.
 */
export function errorShapeOf(error: TRPCError, path?: string) {
  const data = { code: error.code, httpStatus: getHTTPStatusCodeFromError(error), ...(path ? { path } : {}) };
  return purseErrorShape({
    error,
    shape: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[error.code], data },
  });
}

const t = initTRPC.context<TrpcContext>().create({ errorFormatter: purseErrorShape });

export const router = t.router;

/**
 * An input its contract refused by a rule of the catalogue only (blank, not an amount): the
 * engine's refusal, as every door answers it. A malformed input (a bound, a type) stays tRPC's 400.
 */
function refusedInput(error: TRPCError): PurseError | null {
  const cause: unknown = error.cause;
  if (error.code !== "BAD_REQUEST" || !(cause instanceof Error) || !("issues" in cause)) return null;
  return Array.isArray(cause.issues) ? ruleRefusal(cause.issues) : null;
}

/** Every engine error leaves as a TRPCError whose cause keeps the code, field and translation. */
const engineErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const purse = refusedInput(result.error) ?? asPurseError(result.error.cause);
    if (!purse) return result;
    throw new TRPCError({ code: codeByKind[purse.definition.kind], message: purse.message, cause: purse });
  }
  return result;
});

/** A WebSocket carries live updates only: queries and mutations keep HTTP's bounds and headers. */
const socketBounds = t.middleware(async ({ ctx, type, next }) => {
  if (ctx.socket && type !== "subscription") {
    throw new TRPCError({
      code: "METHOD_NOT_SUPPORTED",
      message: "Only subscriptions run over WebSocket; send queries and mutations over HTTP.",
    });
  }
  return next();
});

/**
 * Counts a subscription against its WebSocket's budget until `release` (idempotent) or the
 * subscription's signal aborts; refused with TOO_MANY_REQUESTS past the budget. Over HTTP each
 * request is one stream, so nothing is counted.
 */
export function claimSubscription(ctx: TrpcContext, signal: AbortSignal | undefined): () => void {
  const socket = ctx.socket;
  if (!socket) return () => undefined;
  if (socket.open >= socket.maxSubscriptions) {
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `At most ${socket.maxSubscriptions} subscriptions run at once on one connection.`,
    });
  }
  socket.open += 1;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    socket.open -= 1;
  };
  // A subscription stopped before its stream started never runs the stream's `finally`.
  signal?.addEventListener("abort", release, { once: true });
  return release;
}

export const publicProcedure = t.procedure.use(socketBounds).use(engineErrors);

/**
 * The caller of a request that needs a bearer token, exactly as REST (or the dashboard's session,
 * as GraphQL): UNAUTHORIZED without a good one.
 */
async function authenticated(ctx: TrpcContext) {
  const bearer = ctx.authorization === null ? null : bearerToken(ctx.authorization);
  const token = bearer ?? ctx.sessionToken ?? null;
  const caller = await resolveCaller(ctx.deps, token);
  const actor: Actor = caller.actor;
  const session = bearer === null && ctx.testMode === true;
  // The caller's mode's engine (on their test clock); `liveDeps` verifies the token again later.
  const deps = session ? await testEngineOf(ctx.deps, actor.userId) : caller.deps;
  return { deps, liveDeps: engineFor(ctx.deps, token), actor, token };
}

/** Procedures that need a bearer token, exactly as REST (or the dashboard's session, as GraphQL). */
const authedProcedure = publicProcedure.use(async ({ ctx, next }) =>
  next({ ctx: { ...ctx, ...(await authenticated(ctx)) } }),
);

/**
 * The engine's access scopes, spelled out: the router's emitted declarations may name no engine
 * type (`purse-client`'s build refuses them), and `scopedProcedure` is exported. A scope the
 * engine adds fails the router's build (`procedures/declared.ts` maps each one to a procedure).
 */
type ScopeName = "user" | "merchant" | "operator";

/**
 * Procedures only callers holding one of these scopes may call, declared as GraphQL declares them:
 * a bad or missing token is UNAUTHORIZED first, a valid token without the scope FORBIDDEN
 * (SCOPE_MISSED), before the input reaches the engine.
 */
export function scopedProcedure(...scopes: readonly ScopeName[]) {
  return authedProcedure.use(async ({ ctx, next }) => {
    requireScope(ctx.actor, scopes);
    return next();
  });
}

/** The caller holding one of `scopes`, refused as `scopedProcedure` refuses. */
async function scopedCaller(ctx: TrpcContext, scopes: readonly ScopeName[]) {
  const caller = await authenticated(ctx);
  requireScope(caller.actor, scopes);
  return caller;
}

/**
 * The procedure of a declared operation's scope (`procedures/declared.ts`): anyone for a public one,
 * whose `actor` is then null (no token asked), or else the holder of a token with one of the scopes,
 * refused as `scopedProcedure` refuses. One builder for every scope, so that one typed helper
 * builds every declared procedure.
 */
export function declaredScopeProcedure(scope: "public" | ScopeName | readonly ScopeName[]) {
  return publicProcedure.use(async ({ ctx, next }) => {
    const caller: { readonly deps: EngineDependencies; readonly actor: Actor | null } =
      scope === "public"
        ? { deps: ctx.deps, actor: null }
        : await scopedCaller(ctx, typeof scope === "string" ? [scope] : scope);
    return next({ ctx: { ...ctx, ...caller } });
  });
}

/** A user's token (merchant or partner, the `api` scope), as most REST routes take. */
export const userProcedure = scopedProcedure("user");

/** Merchants only (the history, as REST's). */
export const merchantProcedure = scopedProcedure("merchant");

/** Operator tokens only (`purse operators token`): they are not users. */
export const operatorProcedure = scopedProcedure("operator");
