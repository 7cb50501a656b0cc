import {
  checkoutContract,
  checkoutLinkContract,
  currencyListContract,
  profileContract,
  transactionLookupContract,
  transactionSearchContract,
  transferContract,
  transferResultContract,
  voucherActivationContract,
  voucherActivationResultContract,
  voucherListContract,
  voucherPageContract,
  voucherPurchaseContract,
  walletListContract,
} from "@purse/engine";
import { purseSchema } from "@purse/graphql";
import { buildOpenApiDocument } from "@purse/rest";
import { type AppRouter, appRouter } from "@purse/trpc";
import type { inferRouterOutputs } from "@trpc/server";
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";
import type { OpenAPIV3_1 } from "openapi-types";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";

/**
 * One operation, three doors: the input fields each door accepts must be the same set, after
 * mapping names (REST's snake_case and the `Idempotency-Key` header to camelCase). A field added
 * to one door only fails here, unless it is listed below with its reason.
 */
interface OperationDoors {
  readonly rest: { readonly method: "get" | "post"; readonly path: string };
  readonly graphql: { readonly type: "Query" | "Mutation"; readonly field: string };
  readonly trpc: string;
  /** A door's own name for a field, mapped to the operation's (camelCase) name. */
  readonly aliases?: Partial<Record<DoorName, Record<string, string>>>;
  /** Fields only some doors take, each with the reason. */
  readonly knownDifferences?: Readonly<
    Record<string, { readonly doors: DoorName[]; readonly reason: string }>
  >;
  /** Fields that some doors require and others do not, each with the doors requiring it and why. */
  readonly requiredOnlyBy?: Readonly<Record<string, { readonly doors: DoorName[]; readonly reason: string }>>;
}

type DoorName = "rest" | "graphql" | "trpc";

const operations: Record<string, OperationDoors> = {
  transfer: {
    rest: { method: "post", path: "/api/transaction/transfer" },
    graphql: { type: "Mutation", field: "transfer" },
    trpc: "transfer",
  },
  "checkout creation": {
    rest: { method: "post", path: "/api/processing/checkout" },
    graphql: { type: "Mutation", field: "createCheckout" },
    trpc: "checkout",
  },
  "voucher activation confirm": {
    rest: { method: "post", path: "/api/vouchers/activation/confirm" },
    graphql: { type: "Mutation", field: "activateVoucher" },
    trpc: "activateVoucher",
  },
  "voucher info": {
    rest: { method: "get", path: "/api/vouchers/activation/info" },
    graphql: { type: "Query", field: "voucher" },
    trpc: "voucher",
    aliases: {
      // GraphQL's voucher(number, code) and tRPC's voucher({number, code}) were published so;
      // renaming them would break their clients.
      graphql: { number: "voucherNumber", code: "voucherCode" },
      trpc: { number: "voucherNumber", code: "voucherCode" },
    },
  },
  "voucher purchase": {
    rest: { method: "post", path: "/api/vouchers/buy" },
    graphql: { type: "Mutation", field: "buyVoucher" },
    trpc: "buyVoucher",
  },
  "transaction history": {
    rest: { method: "get", path: "/api/transactions/histories" },
    graphql: { type: "Query", field: "transactions" },
    trpc: "transactions",
    aliases: {
      // The same inclusive bounds: REST names them as the specification does (whole days).
      rest: { startDate: "from", endDate: "until" },
      // GraphQL's cursor is an opaque Relay-style `after`; tRPC's is the last id seen.
      trpc: { afterId: "after" },
    },
    knownDifferences: {
      page: {
        doors: ["rest"],
        reason: "REST pages by number as the specification defines; GraphQL and tRPC page by cursor",
      },
      itemsPerPage: { doors: ["rest"], reason: "REST's page size (the specification's name for `first`)" },
      first: { doors: ["graphql", "trpc"], reason: "cursor paging: page size" },
      after: { doors: ["graphql", "trpc"], reason: "cursor paging: where the page starts" },
    },
    requiredOnlyBy: {
      from: { doors: ["rest"], reason: "the specification requires startDate; the search is open-ended" },
      until: { doors: ["rest"], reason: "the specification requires endDate; the search is open-ended" },
    },
  },
  "transaction show": {
    rest: { method: "get", path: "/api/transaction/show" },
    graphql: { type: "Query", field: "transaction" },
    trpc: "transaction",
  },
  "vouchers list": {
    rest: { method: "get", path: "/api/vouchers" },
    graphql: { type: "Query", field: "vouchers" },
    trpc: "vouchers",
  },
  wallets: {
    rest: { method: "get", path: "/api/wallets" },
    graphql: { type: "Query", field: "wallets" },
    trpc: "wallets",
  },
  currencies: {
    rest: { method: "get", path: "/api/currencies" },
    graphql: { type: "Query", field: "currencies" },
    trpc: "currencies",
  },
  profile: {
    rest: { method: "get", path: "/api/user/me" },
    graphql: { type: "Query", field: "profile" },
    trpc: "profile",
  },
};

const camel = (name: string) =>
  name.replace(/[_-]([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** Request body properties, query parameters and headers other than Authorization. */
function restFields(document: OpenAPIV3_1.Document, doors: OperationDoors): Field[] {
  const operation = document.paths?.[doors.rest.path]?.[doors.rest.method];
  if (!operation) throw new Error(`REST has no ${doors.rest.method.toUpperCase()} ${doors.rest.path}`);
  const parameters = (operation.parameters ?? []).flatMap((parameter) =>
    "name" in parameter && parameter.in !== "path"
      ? [{ name: parameter.name, required: parameter.required === true }]
      : [],
  );
  const body = operation.requestBody;
  const schema =
    body && "content" in body
      ? (body.content["application/json"]?.schema as OpenAPIV3_1.SchemaObject)
      : undefined;
  const required = new Set(schema?.required ?? []);
  const properties = Object.keys(schema?.properties ?? {}).map((name) => ({
    name,
    required: required.has(name),
  }));
  return [...parameters, ...properties].map((field) => ({ ...field, name: camel(field.name) }));
}

/** Arguments, with input objects (`input`, `filter`) flattened into their fields. */
function graphqlFields(doors: OperationDoors): Field[] {
  const type =
    doors.graphql.type === "Query" ? purseSchema().getQueryType() : purseSchema().getMutationType();
  const field: GraphQLField<unknown, unknown> | undefined = type?.getFields()[doors.graphql.field];
  if (!field) throw new Error(`GraphQL has no ${doors.graphql.type}.${doors.graphql.field}`);
  return field.args.flatMap((arg: GraphQLArgument) => {
    const named = getNamedType(arg.type as GraphQLInputType);
    return isInputObjectType(named)
      ? Object.values(named.getFields()).map((inner) => ({
          name: inner.name,
          required: isNonNullType(inner.type),
        }))
      : [{ name: arg.name, required: isNonNullType(arg.type) }];
  });
}

/** The procedure's input object's keys (no input: none). */
function trpcFields(doors: OperationDoors): Field[] {
  const procedures = appRouter._def.procedures as Record<string, { _def: { inputs: unknown[] } } | undefined>;
  const procedure = procedures[doors.trpc];
  if (!procedure) throw new Error(`tRPC has no procedure ${doors.trpc}`);
  return procedure._def.inputs.flatMap((input) => {
    const json = z.toJSONSchema(input as z.ZodType, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, unknown>;
      required?: string[];
      anyOf?: { properties?: Record<string, unknown>; required?: string[] }[];
    };
    const object = json.properties ? json : (json.anyOf?.find((branch) => branch.properties) ?? {});
    const required = new Set(object.required ?? []);
    return Object.keys(object.properties ?? {}).map((name) => ({ name, required: required.has(name) }));
  });
}

interface Field {
  readonly name: string;
  readonly required: boolean;
}

/** The door's fields under the operation's names. */
function mapped(fields: Field[], aliases: Record<string, string> | undefined): Map<string, boolean> {
  return new Map(fields.map((field) => [aliases?.[field.name] ?? field.name, field.required]));
}

/** What each door must take: every field of any door, less those known to be absent from it. */
function expectedFields(door: DoorName, all: string[], doors: OperationDoors): string[] {
  const known = doors.knownDifferences ?? {};
  return all.filter((field) => !known[field] || known[field].doors.includes(door));
}

/** Fields on several doors that only some of them require: field to the doors requiring it. */
function unevenlyRequired(found: Record<DoorName, Map<string, boolean>>): Record<string, DoorName[]> {
  const uneven: Record<string, DoorName[]> = {};
  const fields = new Set([...found.rest.keys(), ...found.graphql.keys(), ...found.trpc.keys()]);
  for (const field of fields) {
    const on = (Object.keys(found) as DoorName[]).filter((door) => found[door].has(field));
    const requiring = on.filter((door) => found[door].get(field));
    if (requiring.length > 0 && requiring.length < on.length) uneven[field] = requiring;
  }
  return uneven;
}

let document: OpenAPIV3_1.Document;
beforeAll(async () => {
  document = await buildOpenApiDocument();
});

describe("one contract per operation: REST, GraphQL and tRPC take the same input fields", () => {
  for (const [name, doors] of Object.entries(operations)) {
    it(name, () => {
      const found: Record<DoorName, Map<string, boolean>> = {
        rest: mapped(restFields(document, doors), doors.aliases?.rest),
        graphql: mapped(graphqlFields(doors), doors.aliases?.graphql),
        trpc: mapped(trpcFields(doors), doors.aliases?.trpc),
      };
      const names = (door: DoorName) => [...found[door].keys()].sort();
      const all = [...new Set([...names("rest"), ...names("graphql"), ...names("trpc")])].sort();
      expect({ rest: names("rest"), graphql: names("graphql"), trpc: names("trpc") }).toEqual({
        rest: expectedFields("rest", all, doors),
        graphql: expectedFields("graphql", all, doors),
        trpc: expectedFields("trpc", all, doors),
      });
      expect(unevenlyRequired(found)).toEqual(
        Object.fromEntries(
          Object.entries(doors.requiredOnlyBy ?? {}).map(([field, { doors }]) => [field, doors]),
        ),
      );
      // A listed difference that no longer exists is stale: remove it from the list.
      for (const [field, known] of Object.entries(doors.knownDifferences ?? {})) {
        for (const door of known.doors) expect(names(door), `${field} on ${door}`).toContain(field);
      }
    });
  }
});

/** Operations whose input is an engine contract: tRPC validates with that very schema. */
const contracts: Record<string, { readonly trpc: string; readonly contract: z.ZodObject }> = {
  transfer: { trpc: "transfer", contract: transferContract },
  "checkout creation": { trpc: "checkout", contract: checkoutContract },
  "voucher activation confirm": { trpc: "activateVoucher", contract: voucherActivationContract },
  "voucher purchase": { trpc: "buyVoucher", contract: voucherPurchaseContract },
  "transaction show": { trpc: "transaction", contract: transactionLookupContract },
  // tRPC's input is `voucherListContract.optional()`: `vouchers()` with no input was published.
  "vouchers list": { trpc: "vouchers", contract: voucherListContract },
};

describe("the transaction search takes the engine's search contract on GraphQL and tRPC", () => {
  it("tRPC extends the contract with its paging, GraphQL's filter is the contract's fields", () => {
    const procedures = appRouter._def.procedures as Record<string, { _def: { inputs: unknown[] } }>;
    const input = procedures["transactions"]?._def.inputs[0] as z.ZodObject;
    const contract: Record<string, z.ZodType> = transactionSearchContract.shape;
    const searchFields = Object.keys(contract);
    for (const field of searchFields) expect(input.shape[field], field).toBe(contract[field]);
    expect(Object.keys(input.shape).sort()).toEqual([...searchFields, "afterId", "first"].sort());
    const filter = purseSchema().getType("TransactionFilter");
    if (!isInputObjectType(filter)) throw new Error("TransactionFilter is not an input object");
    expect(Object.keys(filter.getFields()).sort()).toEqual([...searchFields].sort());
  });
});

describe("operations with an engine contract take it on every door", () => {
  for (const [name, { trpc, contract }] of Object.entries(contracts)) {
    it(name, () => {
      const procedures = appRouter._def.procedures as Record<string, { _def: { inputs: unknown[] } }>;
      const inputs = procedures[trpc]?._def.inputs ?? [];
      expect(inputs).toHaveLength(1);
      expect(inputs[0] instanceof z.ZodOptional ? inputs[0].unwrap() : inputs[0]).toBe(contract);
      const doors = operations[name];
      if (!doors) throw new Error(`${name} is not in the parity table`);
      const fields = Object.keys(contract.shape).sort();
      expect([...mapped(graphqlFields(doors), undefined).keys()].sort()).toEqual(fields);
      expect([...mapped(restFields(document, doors), undefined).keys()].sort()).toEqual(fields);
    });
  }
});

/**
 * Results with an engine contract: tRPC's answer is read by it (`procedures/declared.ts`), so the
 * procedure's published output type is the contract's output (checked by the compiler below);
 * GraphQL's object type has its fields.
 */
const results: Record<
  string,
  { readonly trpc: string; readonly graphql: string; readonly contract: z.ZodObject }
> = {
  transfer: { trpc: "transfer", graphql: "TransferResult", contract: transferResultContract },
  "checkout creation": { trpc: "checkout", graphql: "CheckoutLink", contract: checkoutLinkContract },
  "voucher activation confirm": {
    trpc: "activateVoucher",
    graphql: "VoucherActivation",
    contract: voucherActivationResultContract,
  },
};

describe("tRPC's answer types are the result contracts' outputs", () => {
  it("for the writes and reads above (a type check: `npm run typecheck` fails on a difference)", () => {
    type Outputs = inferRouterOutputs<AppRouter>;
    expectTypeOf<Outputs["transfer"]>().toEqualTypeOf<z.output<typeof transferResultContract>>();
    expectTypeOf<Outputs["checkout"]>().toEqualTypeOf<z.output<typeof checkoutLinkContract>>();
    expectTypeOf<Outputs["activateVoucher"]>().toEqualTypeOf<
      z.output<typeof voucherActivationResultContract>
    >();
    expectTypeOf<Outputs["vouchers"]>().toEqualTypeOf<z.output<typeof voucherPageContract>>();
    expectTypeOf<Outputs["wallets"]>().toEqualTypeOf<z.output<typeof walletListContract>>();
    expectTypeOf<Outputs["currencies"]>().toEqualTypeOf<z.output<typeof currencyListContract>>();
    expectTypeOf<Outputs["profile"]>().toEqualTypeOf<z.output<typeof profileContract>>();
  });
});

describe("operations with a result contract answer it on GraphQL and tRPC", () => {
  for (const [name, { trpc, graphql, contract }] of Object.entries(results)) {
    it(name, () => {
      expect(Object.keys(appRouter._def.procedures)).toContain(trpc);
      const type = purseSchema().getType(graphql);
      if (!isObjectType(type)) throw new Error(`${graphql} is not an object type`);
      expect(Object.keys(type.getFields()).sort()).toEqual(Object.keys(contract.shape).sort());
    });
  }
});

/**
 * Reads whose result is an engine contract: tRPC's output validator is it; REST's response is
 * derived from it and GraphQL's object type declared by hand (to keep the published descriptions),
 * so both are compared with it field by field, under their names, kinds and nullability.
 */
interface ReadContract {
  readonly contract: z.ZodType;
  readonly trpc: string;
  readonly graphql: string;
  readonly rest: string;
  /** Contract fields a door does not publish (at any depth, by the contract's name), with the reason. */
  readonly omitted?: Partial<Record<"rest" | "graphql", Record<string, string>>>;
  /** Contract fields of exact decimal text that REST sends as JSON numbers, as the specification types them. */
  readonly restNumbers?: readonly string[];
}

const reads: Record<string, ReadContract> = {
  "vouchers list": {
    contract: voucherPageContract,
    trpc: "vouchers",
    graphql: "vouchers",
    rest: "/api/vouchers",
    restNumbers: ["amount"],
  },
  wallets: {
    contract: walletListContract,
    trpc: "wallets",
    graphql: "wallets",
    rest: "/api/wallets",
    omitted: {
      rest: { userId: "always the caller; the specification's wallet has no owner field" },
      graphql: { userId: "always the caller; GraphQL's Wallet was published without it" },
    },
    restNumbers: ["amount", "amountLimit", "activeAmount", "rate", "minAmount", "maxAmount"],
  },
  currencies: {
    contract: currencyListContract,
    trpc: "currencies",
    graphql: "currencies",
    rest: "/api/currencies",
    restNumbers: ["rate"],
  },
  profile: { contract: profileContract, trpc: "profile", graphql: "profile", rest: "/api/user/me" },
};

interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | string[];
  readonly properties?: Record<string, JsonSchema>;
  readonly required?: string[];
  readonly items?: JsonSchema;
  readonly anyOf?: JsonSchema[];
}

/** A field's kind, the same for a contract's JSON Schema, REST's and a GraphQL type. */
type Kind = string;

/** The contract (or REST schema) as `path: kind` lines, nested objects and list items included. */
function schemaKinds(schema: JsonSchema, resolve: (ref: string) => JsonSchema, path = ""): Map<string, Kind> {
  const at = schema.$ref ? resolve(schema.$ref) : schema;
  const types = [at.type ?? at.anyOf?.map((branch) => branch.type)].flat().filter(Boolean) as string[];
  const nullable = types.includes("null");
  const own = types.filter((type) => type !== "null");
  const kinds = new Map<string, Kind>();
  const kind =
    own.length === 0 ? "null" : `${own.map((type) => (type === "integer" ? "number" : type)).join("|")}`;
  kinds.set(path, nullable && own.length > 0 ? `${kind}?` : kind);
  if (at.items) for (const [inner, k] of schemaKinds(at.items, resolve, `${path}[]`)) kinds.set(inner, k);
  for (const [name, property] of Object.entries(at.properties ?? {})) {
    for (const [inner, k] of schemaKinds(property, resolve, `${path}.${camel(name)}`)) kinds.set(inner, k);
  }
  return kinds;
}

/** GraphQL's type as the same lines: String, Int and Boolean as string, number, boolean. */
function graphqlKinds(type: GraphQLOutputType, path = ""): Map<string, Kind> {
  const kinds = new Map<string, Kind>();
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  const mark = (kind: string) => (nullable ? `${kind}?` : kind);
  if (isListType(inner)) {
    kinds.set(path, mark("array"));
    for (const [p, k] of graphqlKinds(inner.ofType, `${path}[]`)) kinds.set(p, k);
  } else if (isObjectType(inner)) {
    kinds.set(path, mark("object"));
    for (const field of Object.values(inner.getFields())) {
      for (const [p, k] of graphqlKinds(field.type, `${path}.${field.name}`)) kinds.set(p, k);
    }
  } else if (isScalarType(inner)) {
    const scalar: Record<string, string> = {
      String: "string",
      Int: "number",
      Float: "number",
      Boolean: "boolean",
    };
    kinds.set(path, mark(scalar[inner.name] ?? inner.name));
  }
  return kinds;
}

/** The contract's lines as a door should show them: omitted fields left out, `null` any nullable kind. */
function expectedKinds(contract: Map<string, Kind>, omitted: Record<string, string> = {}): Map<string, Kind> {
  return new Map([...contract].filter(([path]) => !path.split(/\.|\[\]/).some((part) => part in omitted)));
}

const lastName = (path: string) => path.split(".").at(-1) ?? "";

describe("reads with a result contract answer it on every door", () => {
  for (const [name, read] of Object.entries(reads)) {
    it(name, () => {
      expect(Object.keys(appRouter._def.procedures)).toContain(read.trpc);

      const contract = schemaKinds(z.toJSONSchema(read.contract, { io: "output" }) as JsonSchema, () => ({}));

      // GraphQL: the same fields, kinds and nullability (a field always null may be any nullable scalar).
      const field = purseSchema().getQueryType()?.getFields()[read.graphql];
      if (!field) throw new Error(`GraphQL has no Query.${read.graphql}`);
      const graphql = graphqlKinds(field.type);
      const expectedGraphql = expectedKinds(contract, read.omitted?.graphql);
      expect([...graphql.keys()].sort()).toEqual([...expectedGraphql.keys()].sort());
      for (const [path, kind] of expectedGraphql) {
        if (kind === "null") expect(graphql.get(path), path).toMatch(/\?$/);
        else expect(graphql.get(path), path).toBe(kind);
      }

      // REST: the envelope's data, under REST's names (camelCased here), the listed amounts as numbers.
      const response = document.paths?.[read.rest]?.get?.responses?.["200"] as OpenAPIV3_1.ResponseObject;
      const envelope = response.content?.["application/json"]?.schema as JsonSchema;
      const data = envelope.properties?.["data"];
      if (!data) throw new Error(`GET ${read.rest} has no data`);
      const resolve = (ref: string) =>
        document.components?.schemas?.[ref.replace("#/components/schemas/", "")] as JsonSchema;
      const rest = schemaKinds(data, resolve);
      const expectedRest = new Map(
        [...expectedKinds(contract, read.omitted?.rest)].map(([path, kind]) => [
          path,
          read.restNumbers?.includes(lastName(path)) && kind === "string" ? "number" : kind,
        ]),
      );
      expect(Object.fromEntries([...rest].sort())).toEqual(Object.fromEntries([...expectedRest].sort()));
    });
  }
});
