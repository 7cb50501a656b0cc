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
 * How GraphQL publishes an operation: the query or mutation field, and the object types of its
 * output, derived from the contracts (one type per contract). A query takes its input fields as
 * arguments; a mutation takes one `input` argument of the input object type `input` (or flat
 * arguments), and answers a result union of its output and `PurseError`.
 */
export interface GraphqlBinding {
  readonly field: string;
  /** A mutation's input object type. */
  readonly input?: string;
  /** The object type of the output (of each item, for a list). */
  readonly type: string;
  /**
   * The nested objects' types by field path (`meta`, `currency`): a name the door derives from the
   * nested contract, or, for `shared`, a type the door already defines (a batched loader's).
   */
  readonly nested?: Readonly<Record<string, string | { readonly shared: string }>>;
  /** Output fields GraphQL does not publish, by path (`userId`). */
  readonly omit?: readonly string[];
  /** Fields that are always null (`z.null()`), by path: their GraphQL type, `String` unless said. */
  readonly nulls?: Readonly<Record<string, "Boolean">>;
  /**
   * One-of-fixed-names fields (`z.enum`), by path, published as an enum type the door defines
   * (`TransactionStatus`, which the history shares); `String` for the others. A query's argument
   * of the same name takes the same enum (`checkouts(status: CheckoutStatus)`).
   */
  readonly enums?: Readonly<Record<string, string>>;
  /**
   * Fields GraphQL publishes beside the contract's, by path, each the value at a path inside the
   * same object (`currencyCode`: `currency.code`, which clients read before `currency` came).
   */
  readonly lifted?: Readonly<Record<string, string>>;
  /** GraphQL's own description of a field, by path, where the contract's names REST's spelling. */
  readonly descriptions?: Readonly<Record<string, string>>;
  /**
   * The field may answer null though the contract never does: a refusal then answers null beside
   * its error rather than nulling the whole answer (the field has always been nullable).
   */
  readonly nullable?: boolean;
  /**
   * A query answering a result union of its output and `PurseError`, as every mutation does,
   * rather than the field's error (`voucher`, `statement`: published so).
   */
  readonly errorUnion?: true;
  /**
   * A mutation taking its input fields as arguments, as a query does, rather than one `input`
   * object (the operator verbs: `operatorCredit(wallet:, amount:, key:, note:)`, published so).
   */
  readonly arguments?: "flat";
  /** A keyset-paged read, published as a Relay-style connection (`CursorPage`). */
  readonly page?: CursorPage;
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
 * A read of keyset pages as GraphQL publishes it: its output is `{nodes, hasNextPage, ...}` (the
 * rest beside them, `totals`), each node with an `id`; the field answers a connection (`type`,
 * named `<Name>Connection`) of edges (`cursor` and `node`, the node's type `nested.nodes`),
 * `pageInfo` and the rest. Its arguments are the page size, `after` (an opaque cursor of the last
 * node's id) and `filter`, an input object of the other input fields; the door names the edge and
 * filter types after the connection (`<Name>Edge`, `<Name>Filter`), as Relay's convention does.
 * tRPC takes the input as it is.
 */
export interface CursorPage {
  /** The input field of the page size: an `Int` argument of that name, checked by the operation. */
  readonly size: string;
  /** The input field of the last id seen, taken as the `after` cursor. */
  readonly after: string;
  /** The cursor's prefix before the id (`tx`: `tx:42`, base64url), so no other cursor decodes as one. */
  readonly cursor: string;
  /** The filter's one-of-fixed-names fields, by name: their enum types (as `enums`). */
  readonly enums?: Readonly<Record<string, string>>;
}

/**
 * One operation, declared once for every door: GraphQL's mounter iterates the declarations
 * (`operations/index.ts`) and publishes each under its names; tRPC's router names each one it
 * publishes (packages/trpc/src/router.ts); REST states each of its routes as a contract of its own
 * over the operation (packages/rest/src/routes/*.route.ts). Every
 * door checks the scope, lets the input contract validate, and answers errors in its own shape.
 */
export interface OperationDeclaration<
  Input extends InputContract = InputContract,
  Output extends z.ZodType = z.ZodType,
  Kind extends OperationKind = OperationKind,
  Scope extends OperationScope = OperationScope,
> {
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
  /**
   * Null where GraphQL publishes the capability otherwise (REST's page-numbered history: the
   * cursor-paged `transactions` serves GraphQL). tRPC needs no binding: its router names each
   * operation it publishes (packages/trpc/src/router.ts).
   */
  readonly graphql: GraphqlBinding | null;
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
