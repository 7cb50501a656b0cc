import type { Actor, EngineDependencies } from "@purse/engine";
import type { TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { merchantProcedure, operatorProcedure, userProcedure } from "../trpc.ts";

const byScope = { user: userProcedure, merchant: merchantProcedure, operator: operatorProcedure };

/**
 * What this mounter reads of an engine declaration (`OperationDeclaration`), restated here so that
 * the emitted declarations name no engine type but the server's context (`purse-client`'s build
 * refuses any other); every declaration fits it.
 */
interface DeclaredOperation {
  readonly scope: keyof typeof byScope;
  readonly input: z.ZodObject | z.ZodOptional<z.ZodObject> | null;
  readonly output: z.ZodType;
  readonly trpc: string;
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
  [Operation in Operations[number] as Operation["trpc"]]: TRPCQueryProcedure<{
    input: Operation["input"] extends z.ZodType ? z.input<Operation["input"]> : QueryDef["input"];
    output: z.output<Operation["output"]>;
    meta: QueryDef["meta"];
    errorShape: QueryDef["errorShape"];
  }>;
};

/**
 * Every declared operation (`@purse/engine`'s `operations`) as a query on the procedure of its
 * scope, with `.input()` and `.output()` from its contracts. The router's type carries each
 * procedure's own input and output (the cast restates what the builder gives each one), so the
 * typed client infers them as for a hand-written procedure.
 */
export function declaredProcedures<const Operations extends readonly DeclaredOperation[]>(
  operations: Operations,
): DeclaredProcedures<Operations> {
  return Object.fromEntries(
    operations.map((operation) => {
      const scoped = byScope[operation.scope];
      const base = operation.input ? scoped.input(operation.input) : scoped;
      const procedure = base
        .output(operation.output)
        .query(({ ctx, input }) => operation.run(ctx.deps, ctx.actor, input as never));
      return [operation.trpc, procedure];
    }),
  ) as DeclaredProcedures<Operations>;
}
