import { sampleFixture } from "@purse/testing";
import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * One currency by code, declared once in the engine (`currency/currency-show.operation.ts`) and
 * mounted by each door: GET /api/currencies/{code}, GraphQL `currency(code:)`, tRPC `currency`.
 * Each door answers the same currency (rate as its own spelling), and the same refusals in its
 * own shape: an unknown or disabled code is Not found, a malformed one is refused before any
 * work, no token is Unauthorized.
 */
interface Lookup {
  /** The currency, with `rate` as a number; or `<status or code> <message>` for a refusal. */
  currency(token: string, code: string): Promise<Record<string, unknown> | string>;
}

function restLookup(api: TestServer): Lookup {
  return {
    async currency(token, code) {
      const response = await api.call("GET", `/api/currencies/${encodeURIComponent(code)}`, { token });
      return response.status === 200 ? response.body.data : `${response.status} ${response.body.message}`;
    },
  };
}

function graphqlLookup(api: TestServer): Lookup {
  return {
    async currency(token, code) {
      const response = await api.call("POST", "/graphql", {
        token,
        body: {
          query:
            "query ($code: String!) { currency(code: $code) { id code name prefix rate timeUpdatedRate decimals } }",
          variables: { code },
        },
      });
      const found = response.body.data?.currency;
      if (found) return { ...found, rate: Number(found.rate) };
      return `${response.status} ${response.body.errors?.[0]?.message ?? "no data"}`;
    },
  };
}

function trpcLookup(api: TestServer): Lookup {
  return {
    async currency(token, code) {
      const client = createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${api.url}/trpc`, headers: { authorization: `Bearer ${token}` } })],
      });
      try {
        // Typed by the declaration's contracts: `code` in, the listing (rate as exact text) out.
        const found = await client.currency.query({ code });
        return { ...found, rate: Number(found.rate) };
      } catch (error) {
        if (error instanceof TRPCClientError) return `${error.data?.httpStatus} ${error.message}`;
        throw error;
      }
    },
  };
}

const doors: [string, (api: TestServer) => Lookup][] = [
  ["REST", restLookup],
  ["GraphQL", graphqlLookup],
  ["tRPC", trpcLookup],
];

describe("one currency by code, on every door", () => {
  let api: TestServer;
  let acme = "";
  beforeAll(async () => {
    // The sample world plus a disabled currency, which the lookup does not show.
    const world = sampleFixture();
    const disabled = { ...world.currencies[0], id: 9, code: "GBP", name: "Pound", enabled: false };
    api = await startTestServer({ fixture: { ...world, currencies: [...world.currencies, disabled] } });
    acme = await api.token("acme");
  }, 60_000);
  afterAll(() => api.close());

  it("answers the same currency on every door, as the currency list shows it", async () => {
    const listed = await api.call("GET", "/api/currencies", { token: acme });
    const euro = listed.body.data.find((item: { code: string }) => item.code === "EUR");
    expect(euro).toEqual(expect.objectContaining({ id: 2, name: "Euro", rate: 1.087, decimals: 2 }));
    for (const [, make] of doors) expect(await make(api).currency(acme, "EUR")).toEqual(euro);
  });

  describe.each(doors)("%s", (_door, make) => {
    it("answers Not found for an unknown code and for a disabled currency", async () => {
      const lookup = make(api);
      expect(await lookup.currency(acme, "XYZ")).toMatch(/ Not found$/);
      expect(await lookup.currency(acme, "GBP")).toMatch(/ Not found$/);
    });

    it("refuses a code that no currency can have before looking", async () => {
      const lookup = make(api);
      expect(await lookup.currency(acme, "usd")).not.toMatch(/Not found/);
      expect(await lookup.currency(acme, "X".repeat(11))).not.toMatch(/Not found/);
    });

    it("answers Unauthorized without a valid token", async () => {
      expect(await make(api).currency("not-a-token", "USD")).toMatch(/Unauthorized/);
    });
  });

  it("answers each refusal in the door's own status and shape", async () => {
    const [rest, graphql, trpc] = doors.map(([, make]) => make(api));
    expect(await rest?.currency(acme, "XYZ")).toBe("404 Not found");
    expect(await trpc?.currency(acme, "XYZ")).toBe("404 Not found");
    expect(await graphql?.currency(acme, "XYZ")).toBe("200 Not found");
    const malformed = await api.call("GET", "/api/currencies/usd", { token: acme });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({
      status: false,
      message: "This value is not valid.",
      errors: { code: ["This value is not valid."] },
      code: "INVALID_VALUE",
    });
    expect(await graphql?.currency(acme, "usd")).toMatch(/^400 Argument "code"/);
    expect(await trpc?.currency(acme, "usd")).toMatch(/^400 /);
    // The spec's rates path is not a currency code: it still answers the rates.
    const rates = await api.call("GET", "/api/currencies/rates");
    expect(rates.status).toBe(200);
    expect(rates.body.data[0]).toEqual(expect.objectContaining({ name: expect.any(String) }));
  });
});
