import {
  type Actor,
  type EngineDependencies,
  engineOfPublicCall,
  idempotencyKeyOf,
  runOperation,
} from "@purse/engine";
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import {
  merchantProcedure,
  operatorProcedure,
  publicProcedure,
  scopedProcedure,
  userProcedure,
} from "../trpc.ts";

const byScope = { user: userProcedure, merchant: merchantProcedure, operator: operatorProcedure };

type Scope = keyof typeof byScope;

/** The procedure of a declared scope: public (no token), one scope's, or any of several scopes'. */
function procedureOf(scope: DeclaredOperation["scope"]) {
  if (scope === "public") return publicProcedure;
  return typeof scope === "string" ? byScope[scope] : scopedProcedure(...scope);
}

/**
 * What this mounter reads of an engine declaration (`OperationDeclaration`), restated here so that
 * the emitted declarations name no engine type but the server's context (`purse-client`'s build
 * refuses any other); every declaration fits it.
 */
interface DeclaredOperation {
  readonly kind: "query" | "mutation";
  readonly scope: Scope | readonly Scope[] | "public";
  readonly idempotencyKey?: string;
  /** A public operation's input field naming its mode (a `test_` wallet: test mode's). */
  readonly modeFrom?: string;
  readonly input: z.ZodObject | z.ZodOptional<z.ZodObject> | null;
  readonly output: z.ZodType;
  /** Null where tRPC publishes the capability otherwise (REST's history: `transactions` here). */
  readonly trpc: string | null;
  run(
    deps: EngineDependencies,
    actor: Actor | null,
    input: never,
    call: { readonly clientAddress: string | null; readonly amountSentAsNumber: boolean },
  ): Promise<unknown>;
}

/** What a query built on these procedures carries: meta, error shape, and its input when it takes none. */
type QueryDef =
  ReturnType<typeof userProcedure.query<null>> extends TRPCQueryProcedure<infer Def> ? Def : never;

/**
 * One procedure per declaration, under its tRPC name, typed as tRPC's builder types it: its input
 * contract's input (nothing without one) and its output contract's output. Spelled out rather than
 * named, so that the router's emitted declarations expand it and name no engine type (the
 * `purse-client` build refuses those).
 */
type DeclaredProcedures<Operations extends readonly DeclaredOperation[]> = {
  [Operation in Operations[number] as Extract<Operation["trpc"], string>]: ProcedureOf<
    Operation["kind"],
    {
      input: Operation["input"] extends z.ZodType ? z.input<Operation["input"]> : QueryDef["input"];
      output: z.output<Operation["output"]>;
      meta: QueryDef["meta"];
      errorShape: QueryDef["errorShape"];
    }
  >;
};

interface ProcedureDef {
  input: unknown;
  output: unknown;
  meta: object;
  errorShape: unknown;
}

type ProcedureOf<Kind, Def extends ProcedureDef> = Kind extends "mutation"
  ? TRPCMutationProcedure<Def>
  : TRPCQueryProcedure<Def>;

interface Call {
  readonly ctx: {
    readonly deps: EngineDependencies;
    /** Absent on a public procedure: it asks for no token. */
    readonly actor?: Actor;
    readonly idempotencyKey?: string | null;
    readonly clientAddress?: string | null;
  };
  readonly input: unknown;
}

/**
 * Every declared operation (`@purse/engine`'s `operations`) as a query or mutation on the procedure
 * of its scope, with `.input()` and `.output()` from its contracts (a mutation's idempotency key
 * from its input or else the `Idempotency-Key` header). The router's type carries each
 * procedure's own input and output (the cast restates what the builder gives each one), so the
 * typed client infers them as for a hand-written procedure.
 */
export function declaredProcedures<const Operations extends readonly DeclaredOperation[]>(
  operations: Operations,
): DeclaredProcedures<Operations> {
  return Object.fromEntries(
    operations.flatMap((operation) => {
      if (operation.trpc === null) return [];
      const scoped = procedureOf(operation.scope);
      const base = (operation.input ? scoped.input(operation.input) : scoped).output(operation.output);
      const key = operation.idempotencyKey;
      const resolve = ({ ctx, input }: Call) => {
        // The idempotency key from the input, or else the `Idempotency-Key` header.
        const sent = input as Record<string, string | null | undefined> | undefined;
        const withKey =
          key && sent ? { ...sent, [key]: idempotencyKeyOf(sent[key], ctx.idempotencyKey) } : input;
        // tRPC reads JSON as JSON: a bare number arrives as a number, which the contract sees itself.
        const call = { clientAddress: ctx.clientAddress ?? null, amountSentAsNumber: false };
        // A public procedure runs in the mode its input names (a `test_` wallet: test mode's).
        const deps = ctx.actor ? ctx.deps : engineOfPublicCall(ctx.deps, operation, withKey);
        return runOperation(operation, deps, ctx.actor ?? null, withKey, call);
      };
      return [[operation.trpc, operation.kind === "mutation" ? base.mutation(resolve) : base.query(resolve)]];
    }),
  ) as DeclaredProcedures<Operations>;
}
