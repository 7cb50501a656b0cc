import {
  type Actor,
  type EngineDependencies,
  engineOfPublicCall,
  idempotencyKeyOf,
  runOperation,
} from "@purse/engine";
import type { z } from "zod";
import { declaredScopeProcedure } from "../trpc.ts";

type Scope = "user" | "merchant" | "operator";

/**
 * What a procedure reads of an engine declaration (`OperationDeclaration`), restated here so that
 * the emitted declarations name no engine type but the server's context (`purse-client`'s build
 * refuses any other); every declaration fits it. `Kind` and `Input` keep a query from being
 * mounted as a mutation, and an operation with an input from being mounted without it.
 */
interface DeclaredOperation<
  Kind extends "query" | "mutation",
  Input extends z.ZodObject | z.ZodOptional<z.ZodObject> | null,
  Output extends z.ZodType,
> {
  readonly kind: Kind;
  readonly scope: Scope | readonly Scope[] | "public";
  readonly idempotencyKey?: string;
  /** A public operation's input field naming its mode (a `test_` wallet: test mode's). */
  readonly modeFrom?: string;
  readonly input: Input;
  readonly output: Output;
  run(
    deps: EngineDependencies,
    actor: Actor | null,
    input: never,
    call: { readonly clientAddress: string | null; readonly amountSentAsNumber: boolean },
  ): Promise<z.input<Output>>;
}

type Kind = "query" | "mutation";

type InputContract = z.ZodObject | z.ZodOptional<z.ZodObject> | null;

interface Call {
  readonly ctx: {
    readonly deps: EngineDependencies;
    /** Null on a public procedure: it asks for no token. */
    readonly actor: Actor | null;
    readonly idempotencyKey?: string | null;
    readonly clientAddress?: string | null;
  };
  readonly input: unknown;
}

/**
 * The procedure's resolver: the idempotency key from the input or else the `Idempotency-Key`
 * header, the operation run on its contract (`runOperation`), and the answer read by the output
 * contract, whose output type is the procedure's (as `.output()` would give it).
 */
function resolverOf<Output extends z.ZodType>(operation: DeclaredOperation<Kind, InputContract, Output>) {
  const key = operation.idempotencyKey;
  return async ({ ctx, input }: Call): Promise<z.output<Output>> => {
    const sent = input as Record<string, string | null | undefined> | undefined;
    const withKey = key && sent ? { ...sent, [key]: idempotencyKeyOf(sent[key], ctx.idempotencyKey) } : input;
    // tRPC reads JSON as JSON: a bare number arrives as a number, which the contract sees itself.
    const call = { clientAddress: ctx.clientAddress ?? null, amountSentAsNumber: false };
    // A public procedure runs in the mode its input names (a `test_` wallet: test mode's).
    const deps = ctx.actor ? ctx.deps : engineOfPublicCall(ctx.deps, operation, withKey);
    return operation.output.parse(await runOperation(operation, deps, ctx.actor, withKey, call));
  };
}

/**
 * A declared read with an input, as a query on the procedure of its scope: `.input()` from its
 * input contract, its output contract's output. tRPC's builder types it, so `AppRouter` is
 * inferred from the router as for a hand-written procedure.
 */
export function query<Input extends z.ZodObject | z.ZodOptional<z.ZodObject>, Output extends z.ZodType>(
  operation: DeclaredOperation<"query", Input, Output>,
) {
  return declaredScopeProcedure(operation.scope).input(operation.input).query(resolverOf(operation));
}

/** A declared read that takes nothing, as a query without `.input()`. */
export function queryWithoutInput<Output extends z.ZodType>(
  operation: DeclaredOperation<"query", null, Output>,
) {
  return declaredScopeProcedure(operation.scope).query(resolverOf(operation));
}

/** A declared write, as a mutation on the procedure of its scope (every write takes an input). */
export function mutation<Input extends z.ZodObject | z.ZodOptional<z.ZodObject>, Output extends z.ZodType>(
  operation: DeclaredOperation<"mutation", Input, Output>,
) {
  return declaredScopeProcedure(operation.scope).input(operation.input).mutation(resolverOf(operation));
}

type InputObject = z.ZodObject | z.ZodOptional<z.ZodObject>;

/**
 * The procedure `procedureOf` makes of a declaration, as its builder types it: a mutation, a query
 * with its input, or a query without one.
 */
type ProcedureOf<Operation> =
  Operation extends DeclaredOperation<"mutation", infer Input, infer Output>
    ? Input extends InputObject
      ? ReturnType<typeof mutation<Input, Output>>
      : never
    : Operation extends DeclaredOperation<"query", infer Input, infer Output>
      ? Input extends InputObject
        ? ReturnType<typeof query<Input, Output>>
        : ReturnType<typeof queryWithoutInput<Output>>
      : never;

/** Every declaration of a record as its procedure, under the same name. */
export type ProceduresOf<Operations> = { readonly [Name in keyof Operations]: ProcedureOf<Operations[Name]> };

type AnyDeclared = DeclaredOperation<Kind, InputContract, z.ZodType>;

function procedureOf(operation: AnyDeclared) {
  if (operation.kind === "mutation" && operation.input !== null)
    return mutation({ ...operation, kind: "mutation", input: operation.input });
  if (operation.input !== null) return query({ ...operation, kind: "query", input: operation.input });
  return queryWithoutInput({ ...operation, kind: "query", input: null });
}

/**
 * The engine's operations (`operations`), each as its procedure under its own name. A record
 * built by iteration has no type TypeScript can follow, so its type is stated once, here, by
 * `ProceduresOf`: each entry exactly what `procedureOf` builds for that declaration (`mutation`,
 * `query` or `queryWithoutInput`'s own return type). That is the router's one assertion, and
 * `purse-client`'s declarations, emitted from the inferred `AppRouter`, show each procedure as
 * written out by hand before (`test/client/client-package.test.ts` compiles a front end against them).
 */
export function proceduresOf<const Operations extends Readonly<Record<string, AnyDeclared>>>(
  operations: Operations,
): ProceduresOf<Operations> {
  const entries = Object.entries(operations).map(([name, operation]) => [name, procedureOf(operation)]);
  return Object.fromEntries(entries) as ProceduresOf<Operations>;
}
