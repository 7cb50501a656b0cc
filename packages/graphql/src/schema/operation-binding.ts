// How GraphQL publishes a declared operation: its names, by a default rule or by the binding
// table (operation-bindings.ts), with every field path typed against the operation's contracts.
import type { AnyOperation, InputContract } from "@purse/engine";
import type { z } from "zod";

/** An object's fields, through lists and nulls: what a path may step into. */
type Fields<T> = T extends readonly (infer Item)[] ? Fields<Item> : NonNullable<T>;

/**
 * The paths of an output's fields, `status` or `deliveries.attempts`, through nested objects and
 * lists of them (four levels at most), so a binding naming a field that does not exist does not compile.
 */
export type FieldPath<T, Depth extends readonly unknown[] = []> = Depth["length"] extends 4
  ? never
  : Fields<T> extends Record<string, unknown>
    ? {
        [Key in keyof Fields<T> & string]: Key | `${Key}.${FieldPath<Fields<T>[Key], [...Depth, unknown]>}`;
      }[keyof Fields<T> & string]
    : never;

/** The input contract's field names (none for an operation without input). */
type InputField<Input extends InputContract> = Input extends z.ZodType
  ? keyof NonNullable<z.output<Input>> & string
  : never;

type OutputPath<Operation extends AnyOperation> = FieldPath<z.output<Operation["output"]>>;

/**
 * A keyset-paged read as GraphQL publishes it: its output is `{nodes, hasNextPage, ...}` (the
 * rest beside them, `totals`), each node with an `id`; the field answers a connection (`type`,
 * named `<Name>Connection`) of edges (`cursor` and `node`, the node's type `nested.nodes`),
 * `pageInfo` and the rest. Its arguments are the page size, `after` (an opaque cursor of the last
 * node's id) and `filter`, an input object of the other input fields; the door names the edge and
 * filter types after the connection (`<Name>Edge`, `<Name>Filter`), as Relay's convention does.
 */
export interface CursorPage<Field extends string = string> {
  /** The input field of the page size: an `Int` argument of that name, checked by the operation. */
  readonly size: Field;
  /** The input field of the last id seen, taken as the `after` cursor. */
  readonly after: Field;
  /** The cursor's prefix before the id (`tx`: `tx:42`, base64url), so no other cursor decodes as one. */
  readonly cursor: string;
  /** The filter's one-of-fixed-names fields, by name: their enum types (as `enums`). */
  readonly enums?: Readonly<Partial<Record<Field, string>>>;
}

/**
 * What GraphQL says of one operation beyond the default rule (`bindingOf`), each path checked
 * against the operation's output contract and each argument against its input contract.
 */
export interface OperationBinding<Path extends string = string, Argument extends string = string> {
  /** The root field: the operation's list name unless said. */
  readonly field?: string;
  /** A mutation's input object type: `<Name>Input` unless said. */
  readonly input?: string;
  /** The object type of the output (of each item, for a list): `<Name>` unless said. */
  readonly type?: string;
  /**
   * The nested objects' types by field path (`meta`, `currency`): a name the door derives from the
   * nested contract, or, for `shared`, a type the door already defines (a batched loader's).
   */
  readonly nested?: Readonly<Partial<Record<Path, string | { readonly shared: string }>>>;
  /** Output fields GraphQL does not publish (`userId`). */
  readonly omit?: readonly Path[];
  /** Fields that are always null (`z.null()`): their GraphQL type, `String` unless said. */
  readonly nulls?: Readonly<Partial<Record<Path, "Boolean">>>;
  /**
   * One-of-fixed-names fields (`z.enum`) published as an enum type the door defines
   * (`TransactionStatus`, which the history shares); `String` for the others. A query's argument
   * of the same name takes the same enum (`checkouts(status: CheckoutStatus)`).
   */
  readonly enums?: Readonly<Partial<Record<Path | Argument, string>>>;
  /**
   * Fields GraphQL publishes beside the contract's, each the value at a path inside the same
   * object (`currencyCode`: `currency.code`, which clients read before `currency` came).
   */
  readonly lifted?: Readonly<Record<string, Path>>;
  /** GraphQL's own description of a field, where the contract's names REST's spelling. */
  readonly descriptions?: Readonly<Partial<Record<Path, string>>>;
  /**
   * The field may answer null though the contract never does: a refusal then answers null beside
   * its error rather than nulling the whole answer (the field has always been nullable).
   */
  readonly nullable?: true;
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
  /** A keyset-paged read, published as a Relay-style connection. */
  readonly page?: CursorPage<Argument>;
}

/** The binding of one operation, its paths typed by its contracts. */
export type BindingOf<Operation extends AnyOperation> = OperationBinding<
  OutputPath<Operation>,
  InputField<Operation["input"]>
>;

/** What the mounter reads: every name settled. */
export interface Binding extends OperationBinding {
  readonly field: string;
  readonly type: string;
  readonly input: string;
  /** Whether the table named the output's type: a default name yields to a contract's earlier one. */
  readonly typeNamed: boolean;
}

/**
 * The default rule, so a new operation needs no GraphQL code: the field is its list name
 * (`refund`), the output type that name capitalised (`Refund`, of each item for a list;
 * `<Name>Connection` for a paged read), a mutation's input type `<Name>Input`, nested objects
 * `<Type><Field>`; an output contract another operation already publishes keeps that type's name.
 * The binding table says otherwise where the published schema already did.
 */
export function bindingOf(name: string, binding: OperationBinding = {}): Binding {
  const capitalised = capitalise(name);
  return {
    ...binding,
    field: binding.field ?? name,
    type: binding.type ?? (binding.page ? `${capitalised}Connection` : capitalised),
    input: binding.input ?? `${capitalised}Input`,
    typeNamed: binding.type !== undefined,
  };
}

/** `refund` as a type's name: `Refund`. */
export function capitalise(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}
