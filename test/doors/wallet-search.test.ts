import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient, trpcOutcome } from "../support/trpc-client.ts";

/**
 * The two wallet checks a payer makes before paying, declared once in the engine
 * (`wallet/wallet-search.operation.ts`, `wallet/wallets-exist.operation.ts`) and mounted by each
 * door: REST's `GET /api/wallets/search/{wallet_number}` and `GET /api/wallet-exists`, GraphQL's
 * `walletSearch` and `walletsExist`, tRPC's procedures of the same names. Each door answers the
 * same wallets (REST's rate a number, the others' exact text), and the same misses: the caller's
 * own wallet searched, a pair the other way round, or a number left out is Not found.
 */
type Answer = Record<string, unknown> | string;

interface Checks {
  search(token: string, number: string): Promise<Answer>;
  pair(token: string, numbers: { numberTo?: string; numberFrom?: string }): Promise<Answer>;
}

function rest(api: TestServer): Checks {
  const answer = (response: {
    status: number;
    body: { data?: Record<string, unknown>; message?: string };
  }) =>
    response.status === 200 ? (response.body.data ?? {}) : `${response.status} ${response.body.message}`;
  return {
    search: async (token, number) =>
      answer(await api.call("GET", `/api/wallets/search/${encodeURIComponent(number)}`, { token })),
    async pair(token, { numberTo, numberFrom }) {
      const query = new URLSearchParams({
        ...(numberTo ? { number_to: numberTo } : {}),
        ...(numberFrom ? { number_from: numberFrom } : {}),
      });
      const response = await api.call("GET", `/api/wallet-exists?${query}`, { token });
      const found = answer(response);
      if (typeof found === "string") return found;
      const pair = found as {
        wallet_to_id: number;
        number_to: string;
        wallet_from_id: number;
        number_from: string;
      };
      return {
        walletToId: pair.wallet_to_id,
        numberTo: pair.number_to,
        walletFromId: pair.wallet_from_id,
        numberFrom: pair.number_from,
        currency: found["currency"],
      };
    },
  };
}

/** GraphQL's and tRPC's rate is exact text: read as REST's number to compare. */
function withNumberRate(found: Record<string, unknown>): Record<string, unknown> {
  const currency = found["currency"] as Record<string, unknown>;
  return { ...found, currency: { ...currency, rate: Number(currency["rate"]) } };
}

function graphql(api: TestServer): Checks {
  const run = async (token: string, query: string, variables: Record<string, unknown>, field: string) => {
    const response = await api.call("POST", "/graphql", { token, body: { query, variables } });
    const found = response.body.data?.[field];
    if (found) return withNumberRate(found);
    return `${response.body.errors?.[0]?.extensions?.status} ${response.body.errors?.[0]?.message}`;
  };
  const currency = "currency { id code name rate prefix }";
  return {
    search: (token, number) =>
      run(
        token,
        `query ($n: String!) { walletSearch(number: $n) { id number ${currency} } }`,
        { n: number },
        "walletSearch",
      ),
    pair: (token, numbers) =>
      run(
        token,
        `query ($to: String, $from: String) { walletsExist(numberTo: $to, numberFrom: $from) {
          walletToId numberTo walletFromId numberFrom ${currency} } }`,
        { to: numbers.numberTo, from: numbers.numberFrom },
        "walletsExist",
      ),
  };
}

function trpc(api: TestServer): Checks {
  const status = async (work: () => Promise<Record<string, unknown>>) => {
    let code = 0;
    const found = await trpcOutcome(() =>
      work().catch((error) => {
        code = error.data?.httpStatus;
        throw error;
      }),
    );
    return typeof found === "string" ? `${code} ${found}` : withNumberRate(found);
  };
  return {
    search: (token, number) => status(() => trpcClient(api.url, token).walletSearch.query({ number })),
    pair: (token, numbers) => status(() => trpcClient(api.url, token).walletsExist.query(numbers)),
  };
}

const doors: [string, (api: TestServer) => Checks][] = [
  ["REST", rest],
  ["GraphQL", graphql],
  ["tRPC", trpc],
];

describe("another user's wallet and a pair of wallets, on every door", () => {
  let api: TestServer;
  let acme = "";
  let acmeUsd = "";
  let boltUsd = "";
  let usd = { id: 0, code: "", name: "", rate: 0, prefix: "", boltId: 0, acmeId: 0 };
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
    const usdOf = async (token: string) => {
      const listed = await api.call("GET", "/api/wallets", { token });
      return listed.body.data.find(
        (wallet: { currency: { code: string } }) => wallet.currency.code === "USD",
      );
    };
    const own = await usdOf(acme);
    const other = await usdOf(await api.token("bolt"));
    acmeUsd = own.number;
    boltUsd = other.number;
    const { id, code, name, rate, prefix } = other.currency;
    usd = { id, code, name, rate, prefix, boltId: other.id, acmeId: own.id };
  }, 60_000);
  afterAll(() => api.close());

  const currency = () => ({ id: usd.id, code: usd.code, name: usd.name, rate: usd.rate, prefix: usd.prefix });

  for (const [door, make] of doors) {
    it(`${door}: finds another user's wallet, and not the caller's own`, async () => {
      const checks = make(api);
      expect(await checks.search(acme, boltUsd)).toEqual({
        id: usd.boltId,
        number: boltUsd,
        currency: currency(),
      });
      expect(await checks.search(acme, acmeUsd)).toBe("404 Not found");
      expect(await checks.search(acme, "U-NO-SUCH")).toBe("404 Not found");
    });

    it(`${door}: confirms the caller's wallet and another's; the other way round or one left out is Not found`, async () => {
      const checks = make(api);
      expect(await checks.pair(acme, { numberTo: acmeUsd, numberFrom: boltUsd })).toEqual({
        walletToId: usd.acmeId,
        numberTo: acmeUsd,
        walletFromId: usd.boltId,
        numberFrom: boltUsd,
        currency: currency(),
      });
      expect(await checks.pair(acme, { numberTo: boltUsd, numberFrom: acmeUsd })).toBe("404 Not found");
      expect(await checks.pair(acme, { numberTo: acmeUsd })).toBe("404 Not found");
    });

    it(`${door}: needs a token`, async () => {
      expect(await make(api).search("", boltUsd)).toMatch(/ Unauthorized$/);
    });
  }
});
