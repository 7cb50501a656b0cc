import { type Actor, type EngineDependencies, idempotencyKeyOf } from "@purse/engine";
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { merchantProcedure, operatorProcedure, userProcedure } from "../trpc.ts";

const byScope = { user: userProcedure, merchant: merchantProcedure, operator: operatorProcedure };

/**
 * What this mounter reads of an engine declaration (`OperationDeclaration`), restated here so that
 * the emitted declarations name no engine type but the server's context (`purse-client`'s build
 * refuses any other); every declaration fits it.
 */
interface DeclaredOperation {
  readonly kind: "query" | "mutation";
  readonly scope: keyof typeof byScope;
  readonly idempotencyKey?: string;
  readonly input: z.ZodObject | z.ZodOptional<z.ZodObject> | null;
  readonly output: z.ZodType;
  /** Null where tRPC publishes the capability otherwise (REST's history: `transactions` here). */
  readonly trpc: string | null;
  run(deps: EngineDependencies, actor: Actor, input: never): Promise<unknown>;
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
    readonly actor: Actor;
    readonly idempotencyKey?: string | null;
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
      const scoped = byScope[operation.scope];
      const base = (operation.input ? scoped.input(operation.input) : scoped).output(operation.output);
      const key = operation.idempotencyKey;
      const resolve = ({ ctx, input }: Call) => {
        // The idempotency key from the input, or else the `Idempotency-Key` header.
        const sent = input as Record<string, string | null | undefined> | undefined;
        const withKey =
          key && sent ? { ...sent, [key]: idempotencyKeyOf(sent[key], ctx.idempotencyKey) } : input;
        return operation.run(ctx.deps, ctx.actor, withKey as never);
      };
      return [[operation.trpc, operation.kind === "mutation" ? base.mutation(resolve) : base.query(resolve)]];
    }),
  ) as DeclaredProcedures<Operations>;
}
