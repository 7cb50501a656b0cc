import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphQLHandler, type PurseYoga } from "../yoga.ts";

interface Answer {
  status: number;
  setCookie: string[];
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

const signInDocument = `mutation ($login: String!, $password: String!) {
  signIn(login: $login, password: $password) {
    __typename
    ... on MutationSignInSuccess { data { login name expiresAt } }
    ... on PurseError { code message }
  } }`;

describe("dashboard sessions on /graphql", () => {
  let engine: TestEngine;
  let yoga: PurseYoga;
  let clock = Date.now();

  beforeAll(async () => {
    engine = await createTestEngine({ now: () => new Date(clock) });
    yoga = createGraphQLHandler(engine.deps, {
      production: false,
      openIntrospection: false,
      graphiql: false,
    });
  });
  afterAll(() => engine.close());

  async function post(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    handler: PurseYoga = yoga,
  ): Promise<Answer> {
    const response = await handler.fetch("http://purse.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      setCookie: response.headers.getSetCookie(),
      headers: response.headers,
      body: (await response.json()) as Answer["body"],
    };
  }

  async function signIn(login = "acme", password = "acme-pass", handler: PurseYoga = yoga) {
    const answer = await post(signInDocument, { login, password }, { "x-purse-csrf": "1" }, handler);
    const cookie = answer.setCookie[0]?.split(";")[0] ?? "";
    return { answer, cookie };
  }

  const asSession = (cookie: string) => ({ cookie, "x-purse-csrf": "1" });
  const code = (answer: Answer) => answer.body.errors?.[0]?.extensions?.code;

  it("signs in: the session is an HttpOnly, SameSite=Strict cookie that expires, and acts as its user", async () => {
    const { answer, cookie } = await signIn();
    expect(answer.body.data?.["signIn"]).toMatchObject({
      __typename: "MutationSignInSuccess",
      data: { login: "acme", name: "Acme Shop" },
    });
    const attributes = answer.setCookie[0] ?? "";
    expect(attributes).toMatch(
      /^purse_session=ses_[\w-]+; Path=\/; Expires=[^;]+ GMT; SameSite=Strict; HttpOnly$/,
    );
    expect(attributes).not.toContain("Secure");
    const me = await post("{ me { id } wallets { number } }", {}, asSession(cookie));
    expect(me.status).toBe(200);
    expect(me.body.data?.["me"]).toEqual({ id: 1 });
  });

  it("serves the session's own balance history, and no one else's", async () => {
    const { cookie } = await signIn();
    const own = await post('{ balanceHistory(wallet: "U100000010") { day balance } }', {}, asSession(cookie));
    const points = own.body.data?.["balanceHistory"] as { day: string; balance: string }[];
    expect(points).toHaveLength(30);
    expect(points.at(-1)?.balance).toBe("500.00");
    const other = await post('{ balanceHistory(wallet: "U100000020") { day } }', {}, asSession(cookie));
    expect(code(other)).toBe("NOT_FOUND");
  });

  it("marks the cookie Secure in production", async () => {
    const production = createGraphQLHandler(engine.deps, {
      production: true,
      openIntrospection: false,
      graphiql: false,
    });
    const { answer } = await signIn("acme", "acme-pass", production);
    expect(answer.setCookie[0]).toContain("; Secure");
  });

  it("refuses a cookie without the csrf header with 403 before anything runs, a mutation included", async () => {
    const { cookie } = await signIn();
    const before = await post('{ wallet(number: "U100000010") { balance } }', {}, asSession(cookie));
    const transfer = await post(
      `mutation { transfer(input: { walletFrom: "U100000010", walletTo: "U100000030", amount: "1.00" }) {
        __typename } }`,
      {},
      { cookie },
    );
    expect(transfer.status).toBe(403);
    expect(code(transfer)).toBe("CSRF_HEADER_MISSING");
    expect(transfer.body.data).toBeUndefined();
    const read = await post("{ me { id } }", {}, { cookie });
    expect([read.status, code(read)]).toEqual([403, "CSRF_HEADER_MISSING"]);
    const after = await post('{ wallet(number: "U100000010") { balance } }', {}, asSession(cookie));
    expect(after.body.data).toEqual(before.body.data);
  });

  it("refuses a cookie sent from another site or origin, even with the header", async () => {
    const { cookie } = await signIn();
    for (const site of ["cross-site", "same-site"]) {
      const answer = await post("{ me { id } }", {}, { ...asSession(cookie), "sec-fetch-site": site });
      expect([answer.status, code(answer)]).toEqual([403, "CROSS_SITE_REQUEST"]);
    }
    const same = await post("{ me { id } }", {}, { ...asSession(cookie), "sec-fetch-site": "same-origin" });
    expect(same.body.data?.["me"]).toEqual({ id: 1 });
  });

  it("never lets another origin send credentials: CORS allows bearer tokens only", async () => {
    const preflight = await yoga.fetch("http://purse.test/graphql", {
      method: "OPTIONS",
      headers: {
        origin: "http://evil.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-purse-csrf",
      },
    });
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers")).not.toContain("x-purse-csrf");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
  });

  it("signs out: the cookie is cleared and its old value refused from then on", async () => {
    const { cookie } = await signIn();
    const out = await post("mutation { signOut }", {}, asSession(cookie));
    expect(out.body.data).toEqual({ signOut: true });
    expect(out.setCookie[0]).toMatch(/^purse_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
    const again = await post("{ me { id } }", {}, asSession(cookie));
    expect([again.status, code(again)]).toEqual([401, "UNAUTHORIZED"]);
  });

  it("answers an expired session UNAUTHORIZED (401)", async () => {
    const { cookie } = await signIn();
    const saved = clock;
    clock += (engine.deps.options.sessionLifetimeSeconds + 1) * 1000;
    try {
      const answer = await post("{ me { id } }", {}, asSession(cookie));
      expect([answer.status, code(answer)]).toEqual([401, "UNAUTHORIZED"]);
    } finally {
      clock = saved;
    }
  });

  it("gives one answer for a wrong password, an unknown login and a blocked user, and sets no cookie", async () => {
    const answers = [];
    await engine.deps.db.em().getConnection().execute("update users set blocked = true where login = 'cafe'");
    for (const [login, password] of [
      ["acme", "wrong"],
      ["nobody", "acme-pass"],
      ["cafe", "cafe-pass"],
    ] as const) {
      const { answer } = await signIn(login, password);
      expect(answer.setCookie).toEqual([]);
      answers.push(answer.body.data?.["signIn"]);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([
        JSON.stringify({
          __typename: "PurseError",
          code: "SIGN_IN_FAILED",
          message: "Login or password is not valid",
        }),
      ]),
    );
  });

  it("a bearer token wins over a cookie, which then needs no csrf header", async () => {
    const answer = await post(
      "{ me { id } }",
      {},
      { cookie: "purse_session=ses_unknownunknownunknown", authorization: "Bearer nothing" },
    );
    expect([answer.status, code(answer)]).toEqual([401, "UNAUTHORIZED"]);
  });
});

describe("dashboard sign-in flood", () => {
  let engine: TestEngine;
  let yoga: PurseYoga;
  beforeAll(async () => {
    engine = await createTestEngine({ rateLimitPerMinute: 3 });
    yoga = createGraphQLHandler(engine.deps);
  });
  afterAll(() => engine.close());

  const attempt = async (login: string, password: string, address: string) => {
    const response = await yoga.fetch(
      "http://purse.test/graphql",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: signInDocument, variables: { login, password } }),
      },
      { clientAddress: address },
    );
    const body = (await response.json()) as { data: { signIn: { __typename: string; code?: string } } };
    return body.data.signIn.code ?? body.data.signIn.__typename;
  };

  it("refuses a login tried too often from one address, and one address trying many logins", async () => {
    const outcomes = [];
    for (let index = 0; index < 4; index += 1) outcomes.push(await attempt("acme", "guess", "10.0.0.1"));
    expect(outcomes).toEqual(["SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_FAILED", "RATE_LIMITED"]);
    // Even the right password: the budget is spent.
    expect(await attempt("acme", "acme-pass", "10.0.0.1")).toBe("RATE_LIMITED");
    // The merchant elsewhere is not locked out.
    expect(await attempt("acme", "acme-pass", "10.0.0.2")).toBe("MutationSignInSuccess");
    const spread = [];
    for (const login of ["a1", "a2", "a3", "a4"]) spread.push(await attempt(login, "guess", "10.0.0.3"));
    expect(spread.at(-1)).toBe("RATE_LIMITED");
  });
});
