import { issueToken } from "@purse/engine";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphQLHandler, type GraphQLDoorOptions, type PurseYoga } from "../yoga.ts";

interface Answer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

const production: GraphQLDoorOptions = { production: true, openIntrospection: false, graphiql: false };
const embedded: GraphQLDoorOptions = { production: false, openIntrospection: true, graphiql: true };

describe("GraphQL input bounds", () => {
  let engine: TestEngine;
  let yoga: PurseYoga;
  let token: string;
  beforeAll(async () => {
    engine = await createTestEngine();
    yoga = createGraphQLHandler(engine.deps, production);
    token = (
      await issueToken(engine.deps, {
        grantType: "client_credentials",
        clientId: "acme",
        clientSecret: "acme-secret",
      })
    ).access_token;
  });
  afterAll(() => engine.close());

  async function post(
    body: unknown,
    options: { token?: string | null; handler?: PurseYoga; raw?: boolean } = {},
  ): Promise<Answer> {
    const bearer = options.token === undefined ? token : options.token;
    const response = await (options.handler ?? yoga).fetch("http://purse.test/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: options.raw ? String(body) : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer["body"] };
  }

  it("refuses a list literal nested 5 000 deep with a 400, before the recursive parser runs", async () => {
    const query = `{ wallet(number: ${"[".repeat(5_000)}${"]".repeat(5_000)}) { id } }`;
    const answer = await post({ query });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toBe("Nesting limit of 16 exceeded.");
  });

  it("refuses a 10 000-token document with a 400", async () => {
    const answer = await post({ query: `{ ${"me { name } ".repeat(2_500)} }` });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toBe("Token limit of 2000 exceeded.");
  });

  it("refuses variables nested deeper than 8 and huge strings before coercion", async () => {
    // Written as text: JSON.stringify itself would overflow on 5 000 levels.
    const deep = `${"[".repeat(5_000)}"x"${"]".repeat(5_000)}`;
    const nested = await post(
      `{"query":"query($n: String!) { wallet(number: $n) { id } }","variables":{"n":${deep}}}`,
      { raw: true },
    );
    expect(nested.status).toBe(400);
    expect(nested.body.errors?.[0]?.message).toMatch(/nested deeper than 8/);
    const hugeAmount = await post({
      query: "mutation($i: TransferInput!) { transfer(input: $i) { __typename } }",
      variables: {
        i: { walletFrom: "U100000010", walletTo: "U100000020", amount: `1.${"0".repeat(100_000)}` },
      },
    });
    expect(hugeAmount.status).toBe(400);
    expect(hugeAmount.body.errors?.[0]?.message).toMatch(/longer than 2048/);
  });

  it("bounds each text argument: an amount of 41 characters is refused and names its field", async () => {
    const answer = await post({
      query: "mutation($i: TransferInput!) { transfer(input: $i) { __typename } }",
      variables: { i: { walletFrom: "U100000010", walletTo: "U100000020", amount: `1.${"0".repeat(39)}` } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toMatch(/^Argument "input\.amount": /);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const literal = await post({ query: `{ wallet(number: "${"U".repeat(33)}") { id } }` });
    expect(literal.status).toBe(400);
    expect(literal.body.errors?.[0]?.message).toMatch(/^Argument "number": /);
  });

  it("loads the schema with the standard introspection query as an authenticated caller", async () => {
    const answer = await post({ query: getIntrospectionQuery() });
    expect(answer.body.errors).toBeUndefined();
    const schema = buildClientSchema(answer.body.data as unknown as IntrospectionQuery);
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toContain("transactions");
  });

  it("refuses the whole-schema introspection without a token, saying what is missing", async () => {
    const answer = await post({ query: getIntrospectionQuery() }, { token: null });
    expect(answer.status).toBe(400);
    const messages = answer.body.errors?.map((error) => error.message) ?? [];
    expect(messages.some((message) => /^Syntax Error/.test(message))).toBe(false);
    expect(messages).toContain("Introspection of the whole schema needs a bearer token.");
  });

  it("refuses any reading of the schema without a token, however shallow; __typename stays open", async () => {
    for (const query of [
      "{ __schema { types { name } } }",
      '{ __type(name: "Query") { fields { name } } }',
    ]) {
      const answer = await post({ query }, { token: null });
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.map((error) => error.message)).toContain(
        "Introspection of the whole schema needs a bearer token.",
      );
      expect(answer.body.data ?? null).toBeNull();
    }
    expect((await post({ query: "{ __typename }" }, { token: null })).body.data).toEqual({
      __typename: "Query",
    });
    expect((await post({ query: "{ __schema { types { name } } }" })).body.errors).toBeUndefined();
  });

  it("validates a repeated document once per kind of caller: an authenticated verdict never lets an anonymous caller in", async () => {
    const query = getIntrospectionQuery();
    for (let round = 0; round < 3; round += 1) {
      expect((await post({ query })).body.errors).toBeUndefined();
      const anonymous = await post({ query }, { token: null });
      expect(anonymous.status).toBe(400);
      expect(anonymous.body.errors?.map((error) => error.message)).toContain(
        "Introspection of the whole schema needs a bearer token.",
      );
    }
  });

  it("keeps the depth limit for everything that is not introspection, even for authenticated callers", async () => {
    // Introspection fields mixed into a normal query get no allowance.
    const nested = `{ me { name } __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }`;
    const answer = await post({ query: nested });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toMatch(/depth/i);
  });

  it("opens introspection to anyone on the embedded default", async () => {
    const open = createGraphQLHandler(engine.deps, embedded);
    const answer = await post({ query: getIntrospectionQuery() }, { token: null, handler: open });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.["__schema"]).toBeDefined();
  });

  it("suggests field names in development only", async () => {
    const typo = { query: "{ walets { id } }" };
    const hidden = await post(typo);
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors?.[0]?.message).toBe('Cannot query field "walets" on type "Query".');
    const shown = await post(typo, { handler: createGraphQLHandler(engine.deps, embedded) });
    expect(shown.body.errors?.[0]?.message).toMatch(/Did you mean "wallets"/);
  });

  it("suggests no enum value, input field or argument in production either, in validation or in variables", async () => {
    const answers = [
      await post({ query: "{ checkouts(status: PENDIN) { paymentId } }" }),
      await post({
        query: "mutation($i: TransferInput!) { transfer(input: $i) { __typename } }",
        variables: { i: { walletFrm: "U100000010", walletTo: "U100000020", amount: "1.00" } },
      }),
      await post({ query: '{ wallet(numbr: "U100000010") { id } }' }),
    ];
    for (const answer of answers) {
      const messages = answer.body.errors?.map((error) => error.message) ?? [];
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.join(" ")).not.toMatch(/Did you mean/);
    }
    const shown = await post(
      { query: "{ checkouts(status: PENDIN) { paymentId } }" },
      { handler: createGraphQLHandler(engine.deps, embedded) },
    );
    expect(shown.body.errors?.[0]?.message).toMatch(/Did you mean the enum value "PENDING"/);
  });

  it("serves GraphiQL to a browser when enabled, never in production", async () => {
    const page = (handler: PurseYoga) =>
      handler.fetch("http://purse.test/graphql", { headers: { accept: "text/html" } });
    const enabled = await page(createGraphQLHandler(engine.deps, embedded));
    expect(enabled.status).toBe(200);
    expect(await enabled.text()).toMatch(/graphiql/i);
    const refused = await page(yoga);
    expect(refused.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
  });
});
