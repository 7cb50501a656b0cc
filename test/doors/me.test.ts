import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Who the caller is, declared once in the engine (`user/me-show.operation.ts`) and mounted by
 * GraphQL (`me`) and tRPC (`me`); REST's clients read the profile (`/api/user/me`). Both doors
 * answer the token's own user, role as text.
 */
type Me = (token: string) => Promise<Record<string, unknown> | string>;

const graphqlMe =
  (api: TestServer): Me =>
  async (token) => {
    const response = await api.call("POST", "/graphql", {
      token,
      body: { query: "{ me { id name role blocked } }" },
    });
    return response.body.data?.me ?? `${response.status} ${response.body.errors?.[0]?.message}`;
  };

const trpcMe =
  (api: TestServer): Me =>
  async (token) => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${token}` } })],
    });
    try {
      return await client.me.query();
    } catch (error) {
      if (error instanceof TRPCClientError) return `${error.data?.httpStatus} ${error.message}`;
      throw error;
    }
  };

describe.each([
  ["GraphQL", graphqlMe],
  ["tRPC", trpcMe],
])("me on %s", (_door, make) => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  }, 60_000);
  afterAll(() => api.close());

  it("answers the token's own user: a merchant and a partner", async () => {
    const me = make(api);
    expect(await me(await api.token("acme"))).toEqual({
      id: 1,
      name: "Acme Shop",
      role: "merchant",
      blocked: false,
    });
    expect(await me(await api.token("bolt"))).toEqual({
      id: 2,
      name: "Bolt Exchange",
      role: "partner",
      blocked: false,
    });
  });

  it("answers Unauthorized without a valid token", async () => {
    expect(await make(api)("not-a-token")).toMatch(/Unauthorized/);
  });
});
