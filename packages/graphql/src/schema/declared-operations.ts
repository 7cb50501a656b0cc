import {
  type AnyOperation,
  idempotencyKeyOf,
  inputObject,
  operations,
  PurseError,
  runOperation,
  sessionOperations,
} from "@purse/engine";
import { z } from "zod";
import { builder } from "../builder.ts";
import { CheckoutStatus } from "./checkouts.ts";
import { contractInputType, wellFormed } from "./contract-input.ts";
import {
  type AnyEnumRef,
  type AnyObjectRef,
  contractObjectType,
  nestedObject,
  unwrapped,
} from "./contract-object.ts";
import { Currency } from "./currency.ts";
import { mountConnection, relayName } from "./cursor-connection.ts";
import { authScopesOf, callerFor, callOf, type Published } from "./declared-access.ts";
import {
  type Binding,
  bindingOf,
  type CursorPage,
  capitalise,
  type OperationBinding,
} from "./operation-binding.ts";
import { operationBindings } from "./operation-bindings.ts";
import { Transaction, TransactionStatus, TransactionType } from "./transactions.ts";

/** The types this door defines itself that a declaration may name as `shared` (batched loaders). */
const sharedTypes: Readonly<Record<string, AnyObjectRef>> = {
  Currency: Currency as AnyObjectRef,
  Transaction: Transaction as AnyObjectRef,
};

/** The enum types this door defines that a declaration may name (`enums`): the history's too. */
const sharedEnums: Readonly<Record<string, AnyEnumRef>> = {
  TransactionType: TransactionType as AnyEnumRef,
  TransactionStatus: TransactionStatus as AnyEnumRef,
  CheckoutStatus: CheckoutStatus as AnyEnumRef,
};

function enumNamed(
  graphql: Binding,
  path: string,
  enums: Readonly<Record<string, string | undefined>> | undefined = graphql.enums,
): AnyEnumRef | undefined {
  const name = enums?.[path];
  if (name === undefined) return undefined;
  const found = sharedEnums[name];
  if (!found) throw new Error(`${graphql.field}: ${path} names ${name}, which GraphQL does not define`);
  return found;
}

/**
 * One object type per output contract: a list and a lookup answering the same contract share
 * it (GraphQL allows a name once), and one contract is never published under two names.
 */
const objectTypes = new Map<z.ZodObject, { name: string; ref: AnyObjectRef }>();

/**
 * The object type of `contract` at `path` of the operation's output ("" for the output itself):
 * the binding's name for it; else the name the contract is already published under (a lookup
 * answering a list's item); else the default, the operation's type or its parent's type and the
 * field's name (`TestCredentialsWallets`).
 */
function objectTypeAt(graphql: Binding, contract: z.ZodObject, path: string, parent = ""): AnyObjectRef {
  const key = path.slice(path.lastIndexOf(".") + 1);
  const given = path === "" ? (graphql.typeNamed ? graphql.type : undefined) : graphql.nested?.[path];
  const published = objectTypes.get(contract);
  if (given === undefined && published) return published.ref;
  const named = given ?? (path === "" ? graphql.type : `${parent}${capitalise(key)}`);
  if (typeof named !== "string") {
    const shared = sharedTypes[named.shared];
    if (!shared)
      throw new Error(`${graphql.field}: ${path} names ${named.shared}, which GraphQL does not define`);
    return shared;
  }
  let known = published;
  if (known && known.name !== named) {
    throw new Error(`${graphql.field}: its contract is already published as ${known.name}`);
  }
  if (!known) {
    const at = (key: string) => (path === "" ? key : `${path}.${key}`);
    const omit = Object.keys(contract.shape).filter((key) => graphql.omit?.includes(at(key)));
    // The nested types now, while the declarations are read: another file may ask for one by name.
    const nested = new Map<string, AnyObjectRef>();
    for (const [key, field] of Object.entries(contract.shape) as [string, z.ZodType][]) {
      const object = nestedObject(field);
      if (object && !omit.includes(key)) nested.set(key, objectTypeAt(graphql, object, at(key), named));
    }
    const lifted = Object.entries(graphql.lifted ?? {}).filter(
      ([key]) => key.slice(0, Math.max(key.lastIndexOf("."), 0)) === path,
    );
    const ref = contractObjectType(named, contract, {
      omit,
      nullType: (key) => graphql.nulls?.[at(key)] ?? "String",
      objectType: (key) => nested.get(key) as AnyObjectRef,
      enumType: (key) => enumNamed(graphql, at(key)),
      description: (key) => graphql.descriptions?.[at(key)],
      lifted: Object.fromEntries(lifted.map(([key, from]) => [key.slice(key.lastIndexOf(".") + 1), from])),
    }) as AnyObjectRef;
    known = { name: named, ref };
    objectTypes.set(contract, known);
  }
  return known.ref;
}

/**
 * The field's type: an object or a list of them, nullable when the contract may answer null (a
 * lookup) or the binding says the field always was.
 */
interface OutputType {
  readonly type: AnyObjectRef | [AnyObjectRef];
  readonly nullable: boolean;
}

function outputTypeOf({ operation, graphql }: Published): OutputType {
  const nullable = operation.output instanceof z.ZodNullable || graphql.nullable === true;
  const output =
    operation.output instanceof z.ZodNullable ? (operation.output.unwrap() as z.ZodType) : operation.output;
  const list = output instanceof z.ZodArray;
  const item = list ? output.element : output;
  if (!(item instanceof z.ZodObject))
    throw new Error(`${graphql.field}: GraphQL publishes an object or a list of objects`);
  const ref = objectTypeAt(graphql, item, "");
  return { type: list ? [ref] : ref, nullable };
}

/** The operation's input with its idempotency key, sent in the input or else as the `Idempotency-Key` header. */
function withIdempotencyKey(operation: AnyOperation, input: unknown, header: string | null | undefined) {
  const key = operation.idempotencyKey;
  if (!key || !input) return input;
  const sent = input as Record<string, string | null | undefined>;
  return { ...sent, [key]: idempotencyKeyOf(sent[key], header) };
}

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]["arg"];

/**
 * Each input field as an argument: text, a whole number, a flag, a list of texts, or one of fixed names as the enum type
 * the binding names (`enums`), required unless the contract lets it out, validated by its
 * contract (a refusal is a 400 naming the argument).
 */
function argumentsOf(arg: ArgBuilder, { operation, graphql }: Published) {
  const fields = Object.entries(inputObject(operation.input)?.shape ?? {}) as [string, z.ZodType][];
  return Object.fromEntries(
    fields.map(([name, field]) => {
      const base = unwrapped(field).inner;
      const options = {
        required: !field.safeParse(undefined).success,
        validate: wellFormed(field),
        ...(field.description ? { description: field.description } : {}),
      };
      const enumType = base instanceof z.ZodEnum ? enumNamed(graphql, name) : undefined;
      if (enumType) return [name, arg({ ...options, type: enumType })];
      if (base instanceof z.ZodString) return [name, arg.string(options)];
      if (base instanceof z.ZodNumber && base.isInt) return [name, arg.int(options)];
      if (base instanceof z.ZodBoolean) return [name, arg.boolean(options)];
      // A list of texts (an endpoint's event types): `[String!]`.
      if (base instanceof z.ZodArray && base.element instanceof z.ZodString)
        return [name, arg.stringList(options)];
      throw new Error(
        `${graphql.field}(${name}) is neither text, a whole number, a flag, texts nor a named enum`,
      );
    }),
  );
}

/**
 * A declared read as a query field: each input field an argument (`argumentsOf`), its refusals
 * as the field's error with the spec's message, as the other reads answer them, or as a result
 * union with `PurseError` where the binding says so (`errorUnion`).
 */
function mountQuery(published: Published, { type, nullable }: OutputType): void {
  const { operation, graphql } = published;
  builder.queryField(graphql.field, (t) =>
    t.field({
      type,
      nullable,
      description: operation.description,
      ...authScopesOf(operation),
      ...(graphql.errorUnion ? { errors: { types: [PurseError] } } : {}),
      args: argumentsOf(t.arg, published),
      resolve: async (_root, args, ctx) => {
        const input = operation.input ? args : undefined;
        const { deps, actor } = await callerFor(operation, ctx, input);
        return runOperation(operation, deps, actor, input, callOf(ctx));
      },
    }),
  );
}

/**
 * A declared write as a mutation field: one `input` argument of the input object type derived
 * from the input contract (text fields validated by the contract), or its fields as arguments
 * where the binding says so (`arguments: "flat"`, as a query's), the idempotency key from the
 * input or the header, and a result union of the output and `PurseError`, as every mutation.
 */
function mountMutation(published: Published, { type, nullable }: OutputType): void {
  const { operation, graphql } = published;
  const contract = inputObject(operation.input);
  if (!contract) throw new Error(`${graphql.field}: a mutation takes an input`);
  const inputType = graphql.arguments === "flat" ? null : contractInputType(graphql.input, contract);
  builder.mutationField(graphql.field, (t) =>
    t.field({
      type,
      nullable,
      description: operation.description,
      ...authScopesOf(operation),
      errors: { types: [PurseError] },
      args: inputType
        ? { input: t.arg({ type: inputType, required: !(operation.input instanceof z.ZodOptional) }) }
        : argumentsOf(t.arg, published),
      resolve: async (_root, args, ctx) => {
        const input = withIdempotencyKey(operation, inputType ? args["input"] : args, ctx.idempotencyKey);
        const { deps, actor } = await callerFor(operation, ctx, input);
        return runOperation(operation, deps, actor, input, callOf(ctx));
      },
    }),
  );
}

/**
 * A keyset-paged read as a connection field (`cursor-connection.ts`): the node type and the
 * output's other lists derived as any output's nested objects, the filter input from the input
 * contract less the page's two fields.
 */
function mountPaged(published: Published, page: CursorPage): void {
  const { operation, graphql } = published;
  const contract = inputObject(operation.input);
  const output = operation.output;
  if (!contract || !(output instanceof z.ZodObject)) {
    throw new Error(`${graphql.field}: a connection takes an input and answers an object`);
  }
  const lists = Object.entries(output.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const item = field instanceof z.ZodArray ? field.element : null;
    return item instanceof z.ZodObject ? [[key, objectTypeAt(graphql, item, key)] as const] : [];
  });
  const node = lists.find(([key]) => key === "nodes")?.[1];
  if (!node) throw new Error(`${graphql.field}: a connection's output has a list of nodes`);
  mountConnection(published, page, {
    node,
    others: Object.fromEntries(lists.filter(([key]) => key !== "nodes")),
    filter: contractInputType(relayName(graphql.type, "Filter"), filterOf(contract, page), undefined, (key) =>
      enumNamed(graphql, key, page.enums),
    ),
    defaultSize: (contract.shape[page.size] as z.ZodType).parse(undefined) as number,
  });
}

/** The input contract less the page's two fields: each field the contract's own schema. */
function filterOf(contract: z.ZodObject, page: CursorPage): z.ZodObject {
  const paging = new Set([page.size, page.after]);
  return z.object(Object.fromEntries(Object.entries(contract.shape).filter(([key]) => !paging.has(key))));
}

/**
 * Every declared operation (`@purse/engine`'s `operations`, and the dashboard's session-only
 * `sessionOperations`) as a query or mutation field under its binding's names
 * (`operation-bindings.ts`, else the default rule): its scope by scope-auth, the output type
 * derived from its contract.
 */
const bindings: Readonly<Record<string, OperationBinding>> = operationBindings;
const declared: Readonly<Record<string, AnyOperation>> = { ...operations, ...sessionOperations };
// Those whose type the table names first: a default name never takes a contract the table names.
const published: readonly Published[] = Object.entries(declared)
  .map(([name, operation]) => ({ operation, graphql: bindingOf(name, bindings[name]) }))
  .sort((a, b) => Number(b.graphql.typeNamed) - Number(a.graphql.typeNamed));
for (const each of published) {
  if (each.graphql.page) mountPaged(each, each.graphql.page);
  else if (each.operation.kind === "mutation") mountMutation(each, outputTypeOf(each));
  else mountQuery(each, outputTypeOf(each));
}
