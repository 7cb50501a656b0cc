import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * One of the caller's wallets by number, declared once in the engine
 * (`wallet/wallet-show.operation.ts`) and mounted by GraphQL (`wallet(number:)`) and tRPC
 * (`wallet`); REST has no such route (its clients read the wallet list). Each door answers the
 * wallet as the list shows it, null for a number the caller does not own, and refuses a number
 * longer than any wallet's before looking.
 */
interface Lookup {
  /** The wallet (id, number, balance, currency code), null, or `<status> <message>` for a refusal. */
  wallet(token: string, number: string): Promise<Record<string, unknown> | null | string>;
}

function graphqlLookup(api: TestServer): Lookup {
  return {
    async wallet(token, number) {
      const response = await api.call("POST", "/graphql", {
        token,
        body: {
          query: "query ($n: String!) { wallet(number: $n) { id number amount status currency { code } } }",
          variables: { n: number },
        },
      });
      if (response.body.errors) return `${response.status} ${response.body.errors[0].message}`;
      return response.body.data.wallet;
    },
  };
}

function trpcLookup(api: TestServer): Lookup {
  return {
    async wallet(token, number) {
      const client = createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${token}` } })],
      });
      try {
        const found = await client.wallet.query({ number });
        if (!found) return found;
        const { id, amount, status, currency } = found;
        return { id, number: found.number, amount, status, currency: { code: currency.code } };
      } catch (error) {
        if (error instanceof TRPCClientError) return `${error.data?.httpStatus} ${error.message}`;
        throw error;
      }
    },
  };
}

const doors: [string, (api: TestServer) => Lookup][] = [
  ["GraphQL", graphqlLookup],
  ["tRPC", trpcLookup],
];

describe("one of the caller's wallets by number, on GraphQL and tRPC", () => {
  let api: TestServer;
  let acme = "";
  let bolt = "";
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
    bolt = await api.token("bolt");
  }, 60_000);
  afterAll(() => api.close());

  it("answers each wallet of the caller as the wallet list shows it", async () => {
    const listed = await api.call("GET", "/api/wallets", { token: acme });
    expect(listed.body.data.length).toBeGreaterThan(1);
    for (const item of listed.body.data) {
      const expected = {
        id: item.id,
        number: item.number,
        amount: String(item.amount),
        status: item.status,
        currency: { code: item.currency.code },
      };
      for (const [, make] of doors) {
        const found = (await make(api).wallet(acme, item.number)) as Record<string, unknown>;
        expect({ ...found, amount: String(Number(found["amount"])) }).toEqual(expected);
      }
    }
  });

  describe.each(doors)("%s", (_door, make) => {
    it("answers null for another user's wallet and for an unknown number", async () => {
      const theirs = await api.call("GET", "/api/wallets", { token: bolt });
      const number = theirs.body.data[0].number as string;
      expect(await make(api).wallet(bolt, number)).not.toBeNull();
      expect(await make(api).wallet(acme, number)).toBeNull();
      expect(await make(api).wallet(acme, "U999999999")).toBeNull();
    });

    it("refuses a number longer than any wallet's (32 characters) with a 400, and no token", async () => {
      expect(await make(api).wallet(acme, "U".repeat(33))).toMatch(/^400 /);
      expect(await make(api).wallet(acme, "U".repeat(32))).toBeNull();
      expect(await make(api).wallet("not-a-token", "U100000010")).toMatch(/Unauthorized/);
    });
  });
});
