import type { z } from "zod";
import type { AccessScope } from "../auth/access-scope.ts";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import type { ErrorCode } from "../errors/index.ts";

/** What an operation takes: an object contract, or nothing at all (`null`). */
export type InputContract = z.ZodObject | null;

/** The value `run` receives: the input contract's parsed output, or nothing. */
export type OperationInput<Input extends InputContract> = Input extends z.ZodObject
  ? z.output<Input>
  : undefined;

/**
 * How REST publishes an operation. The path, method and names are the wire's; the values are the
 * engine's: the door renames fields and turns the `numbers` (exact decimal text in the contract)
 * into JSON numbers, nothing else.
 */
export interface RestBinding {
  /** Only reads are declared so far; writes keep their hand-written routes. */
  readonly method: "GET";
  /** Fastify's form: a `:name` segment is the input field of that (wire) name. */
  readonly path: string;
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  /** The OpenAPI component of the output object (of each item, for a list). */
  readonly component: string;
  /** REST's name for each field it spells differently, input and output alike; `snake_case` for all. */
  readonly names?: Readonly<Record<string, string>> | "snake_case";
  /** Output fields the specification types as numbers: sent as JSON numbers. */
  readonly numbers?: readonly string[];
}

/**
 * One operation, declared once for REST, GraphQL and tRPC: each door's mounter iterates the
 * declarations (`operations/index.ts`) and publishes every one under its names, checking its
 * scope, validating its input and answering its errors in the door's own shape.
 */
export interface OperationDeclaration<
  Input extends InputContract = InputContract,
  Output extends z.ZodType = z.ZodType,
  Procedure extends string = string,
> {
  /** Only reads are declared so far. */
  readonly kind: "query";
  /** One sentence for every door's documentation (REST's 200, the GraphQL field). */
  readonly description: string;
  readonly scope: AccessScope;
  readonly input: Input;
  /** An object contract, or a list of one. */
  readonly output: Output;
  /** The refusals beyond the scope's own (no token 401, no scope 403), by catalogue code. */
  readonly errors: readonly ErrorCode[];
  // A method, not a function property: declarations of different inputs then share one list type.
  run(deps: EngineDependencies, actor: Actor, input: OperationInput<Input>): Promise<z.input<Output>>;
  readonly rest: RestBinding;
  /** The query field, and the object type of the output (one name per contract). */
  readonly graphql: { readonly field: string; readonly type: string };
  readonly trpc: Procedure;
}

/** Any declaration, whatever its contracts: what the doors iterate. */
export type AnyOperation = OperationDeclaration;

/** Declares an operation, keeping its exact contract types and tRPC name for the typed router. */
export function defineOperation<
  Input extends InputContract,
  Output extends z.ZodType,
  const Procedure extends string,
>(
  declaration: OperationDeclaration<Input, Output, Procedure>,
): OperationDeclaration<Input, Output, Procedure> {
  return declaration;
}
