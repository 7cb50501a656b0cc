import { z } from "zod";
import type { AccessScope } from "../auth/access-scope.ts";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import type { ErrorCode } from "../errors/index.ts";

/**
 * What an operation takes: an object contract, one that may be left out altogether (`.optional()`,
 * every field of it optional: `vouchers()` asks for the first page), or nothing at all (`null`).
 */
export type InputContract = z.ZodObject | z.ZodOptional<z.ZodObject> | null;

/** The value `run` receives: the input contract's parsed output, or nothing. */
export type OperationInput<Input extends InputContract> = Input extends z.ZodType
  ? z.output<Input>
  : undefined;

/** The object contract of an input, whether it may be left out or not. */
export function inputObject(input: InputContract): z.ZodObject | null {
  if (input === null) return null;
  return input instanceof z.ZodOptional ? (input.unwrap() as z.ZodObject) : input;
}

/**
 * Who may call an operation: the holders of one scope, of any of several (`["user", "operator"]`:
 * the statement, a wallet's owner or an operator), or anyone, with no token at all (`public`: the
 * rates), whose `run` then gets no actor.
 */
export type OperationScope = AccessScope | readonly AccessScope[] | "public";

/**
 * What a door knows of the request beyond its input, for the operations that need it: the
 * caller's address as the host resolved it (the abuse limits of a public operation), and whether
 * the body sent an amount as a bare JSON number (REST's exact JSON reading keeps its text; a
 * checkout's signature is over the JSON as sent). And what the door would hear back beside the
 * answer: `replayed`, called when the answer repeats an earlier request's (its idempotency key or
 * `payment_id` seen before, nothing moved), which REST says with `Idempotent-Replayed: true`.
 */
export interface CallContext {
  readonly clientAddress: string | null;
  readonly amountSentAsNumber: boolean;
  readonly replayed?: () => void;
}

/** What `run` is told of the caller: nobody for a public operation. */
type ActorOf<Scope extends OperationScope> = Scope extends "public" ? null : Actor;

/** The scopes any of which lets a caller in, or null for a public operation (no token asked). */
export function scopesOf(scope: OperationScope): readonly AccessScope[] | null {
  if (scope === "public") return null;
  return typeof scope === "string" ? [scope] : scope;
}

/**
 * One operation, declared once for every door, in no door's words: GraphQL's mounter and tRPC's
 * router iterate the list (`operations/operations.generated.ts`, written by `npm run lists`) and publish each under its name; REST states
 * each of its routes as a contract of its own over the operation
 * (packages/rest/src/routes/*.route.ts). Every door checks the scope, lets the input contract
 * validate, and answers errors in its own shape.
 */
export interface OperationDeclaration<
  Input extends InputContract = InputContract,
  Output extends z.ZodType = z.ZodType,
  Kind extends OperationKind = OperationKind,
  Scope extends OperationScope = OperationScope,
> {
  /**
   * The operation's name in the list, which GraphQL and tRPC publish it under (`refund`: the tRPC
   * procedure; GraphQL's field unless its binding table keeps an older name). Null for the two only
   * a REST route publishes (the page-numbered history, the hosted page's pay).
   */
  readonly name: string | null;
  /** A read (REST GET, GraphQL query, tRPC query), or a write (POST, mutation, mutation). */
  readonly kind: Kind;
  /** One sentence for every door's documentation (REST's 200, the GraphQL field). */
  readonly description: string;
  readonly scope: Scope;
  readonly input: Input;
  /**
   * An object contract, or a list of one, or a nullable one (a lookup that may find nothing:
   * GraphQL's nullable field, tRPC's `null`; REST answers a 404 instead, so it publishes no such one).
   */
  readonly output: Output;
  /**
   * The input field holding the caller's idempotency key: REST reads it from the `Idempotency-Key`
   * header, GraphQL and tRPC from the input or else that header (`idempotencyKeyOf`).
   */
  readonly idempotencyKey?: string;
  /** The refusals beyond the scope's own (no token 401, no scope 403), by catalogue code. */
  readonly errors: readonly ErrorCode[];
  /**
   * A public operation's input field whose value names its mode (contract: "Test mode"): a
   * checkout's `walletTo`, a `test_…` number for test mode's. An operation with a scope takes its
   * mode from the caller's token instead (mode/caller.ts).
   */
  readonly modeFrom?: string;
  /**
   * Only the dashboard's session cookie may call it: GraphQL refuses a bearer token (SCOPE_MISSED)
   * and runs it on the session's live engine whatever the test-mode switch says; tRPC and REST do
   * not publish it (its router does not name it). So an API token can never reach it (`createTestCredentials`).
   */
  readonly sessionOnly?: true;
  // A method, not a function property: declarations of different inputs then share one list type.
  run(
    deps: EngineDependencies,
    actor: ActorOf<Scope>,
    input: OperationInput<Input>,
    call: CallContext,
  ): Promise<z.input<Output>>;
}

/** Any declaration, whatever its contracts: what the doors iterate. */
export type AnyOperation = OperationDeclaration;

/** A read or a write: what each door publishes it as. */
export type OperationKind = "query" | "mutation";

/** Declares an operation, keeping its exact contract types and kind for the typed router. */
export function defineOperation<
  Input extends InputContract,
  Output extends z.ZodType,
  const Kind extends OperationKind,
  const Scope extends OperationScope,
>(
  declaration: OperationDeclaration<Input, Output, Kind, Scope>,
): OperationDeclaration<Input, Output, Kind, Scope> {
  return declaration;
}
