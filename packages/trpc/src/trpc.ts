import {
  type AccessScope,
  type Actor,
  asPurseError,
  authenticate,
  type EngineDependencies,
  type ErrorKind,
  PurseError,
  requireScope,
} from "@purse/engine";
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

export interface TrpcContext {
  readonly deps: EngineDependencies;
  readonly authorization: string | null;
  /** The caller's address as the host resolved it (PURSE_TRUST_PROXY), for the abuse limits. */
  readonly clientAddress?: string | null;
  /** The request's `Idempotency-Key` header: money-moving mutations whose input names no key use it. */
  readonly idempotencyKey?: string | null;
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

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const purse = PurseError.is(error.cause) ? error.cause : null;
    return {
      ...shape,
      // Unexpected errors never show their text; engine errors show the spec's.
      message: purse
        ? purse.message
        : error.code === "INTERNAL_SERVER_ERROR"
          ? "Internal server error"
          : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        purseCode: purse?.code ?? null,
        field: purse?.field ?? null,
        translation: purse?.translation ?? null,
      },
    };
  },
});

export const router = t.router;

/** Every engine error leaves as a TRPCError whose cause keeps the code, field and translation. */
const engineErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const purse = asPurseError(result.error.cause);
    if (!purse) return result;
    throw new TRPCError({ code: codeByKind[purse.definition.kind], message: purse.message, cause: purse });
  }
  return result;
});

export const publicProcedure = t.procedure.use(engineErrors);

/** Procedures that need a bearer token, exactly as REST. */
const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(ctx.authorization ?? "")?.[1] ?? null;
  const actor: Actor = await authenticate(ctx.deps, token);
  return next({ ctx: { ...ctx, actor, token } });
});

/**
 * Procedures only callers holding one of these scopes may call, declared as GraphQL declares them:
 * a bad or missing token is UNAUTHORIZED first, a valid token without the scope FORBIDDEN
 * (SCOPE_MISSED), before the input reaches the engine.
 */
function scopedProcedure(...scopes: readonly AccessScope[]) {
  return authedProcedure.use(async ({ ctx, next }) => {
    requireScope(ctx.actor, scopes);
    return next();
  });
}

/** A user's token (merchant or partner, the `api` scope), as most REST routes take. */
export const userProcedure = scopedProcedure("user");

/** Merchants only (the history, as REST's). */
export const merchantProcedure = scopedProcedure("merchant");

/** Operator tokens only (`purse operators token`): they are not users. */
export const operatorProcedure = scopedProcedure("operator");

/** A user (merchant or partner) or an operator. */
export const userOrOperatorProcedure = scopedProcedure("user", "operator");
