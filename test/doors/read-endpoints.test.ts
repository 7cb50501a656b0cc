import { sampleFixture } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient, trpcOutcome } from "../support/trpc-client.ts";

/**
 * GET /api/currencies and GET /api/user/me, and the same reads through GraphQL and tRPC: the same
 * values (in each door's spelling), the caller's own profile only, the same refusals.
 */
interface Read {
  currencies(token: string): Promise<CurrencyItem[] | string>;
  profile(token: string): Promise<Record<string, unknown> | string>;
}

interface CurrencyItem {
  id: number;
  code: string;
  name: string;
  prefix: string;
  rate: number | string;
  timeUpdatedRate: string;
  decimals: number;
}

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The profile as REST spells it, from each door's own spelling. */
const restProfileNames: Record<string, string> = {
  dateCreated: "date_created",
  withdrawCommission: "withdraw_commission",
  processingCommission: "processing_commission",
  documentUploaded: "document_uploaded",
  documentVerify: "document_verify",
  isExcharger: "is_excharger",
};
const asRestProfile = (profile: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(profile).map(([key, value]) => [restProfileNames[key] ?? key, value]));

function restRead(api: TestServer): Read {
  return {
    async currencies(token) {
      const response = await api.call("GET", "/api/currencies", { token });
      return response.status === 200 ? response.body.data : `${response.status} ${response.body.message}`;
    },
    async profile(token) {
      const response = await api.call("GET", "/api/user/me", { token });
      return response.status === 200 ? response.body.data : `${response.status} ${response.body.message}`;
    },
  };
}

function graphqlRead(api: TestServer): Read {
  const query = async (token: string, text: string, field: string) => {
    const response = await api.call("POST", "/graphql", { token, body: { query: text } });
    return response.body.data?.[field] ?? response.body.errors?.[0]?.message ?? "no data";
  };
  return {
    async currencies(token) {
      const found = await query(
        token,
        "{ currencies { id code name prefix rate timeUpdatedRate decimals } }",
        "currencies",
      );
      return typeof found === "string"
        ? found
        : found.map((item: CurrencyItem) => ({ ...item, rate: Number(item.rate) }));
    },
    async profile(token) {
      const found = await query(
        token,
        `{ profile { id email fullname dateCreated country city address zipcode phone lastlogin lastip
          withdrawCommission processingCommission documentUploaded documentVerify isExcharger codephrase } }`,
        "profile",
      );
      return typeof found === "string" ? found : asRestProfile(found);
    },
  };
}

function trpcRead(api: TestServer): Read {
  const client = (token: string) => trpcClient(api.url, token);
  const attempt = trpcOutcome;
  return {
    currencies: (token) =>
      attempt(async () =>
        (await client(token).currencies.query()).map((item) => ({ ...item, rate: Number(item.rate) })),
      ),
    profile: (token) => attempt(async () => asRestProfile(await client(token).profile.query())),
  };
}

/** The sample world plus a disabled currency, which no list shows. */
function fixture() {
  const world = sampleFixture();
  const [usd] = world.currencies;
  return {
    ...world,
    currencies: [...world.currencies, { ...usd, id: 9, code: "GBP", name: "Pound", enabled: false }],
  };
}

const doors: [string, (api: TestServer) => Read][] = [
  ["REST", restRead],
  ["GraphQL", graphqlRead],
  ["tRPC", trpcRead],
];

describe("currencies and the caller's profile, on every door", () => {
  let api: TestServer;
  const tokens: Record<string, string> = {};
  let seededAt = 0;
  beforeAll(async () => {
    seededAt = Date.now();
    api = await startTestServer({ fixture: fixture() });
    for (const name of ["acme", "bolt"]) tokens[name] = await api.token(name);
  }, 60_000);
  afterAll(() => api.close());

  describe.each(doors)("%s", (_door, make) => {
    it("lists the enabled currencies with rate, decimals and the time the rate was set", async () => {
      const found = await make(api).currencies(tokens["acme"] ?? "");
      expect(found).toEqual([
        {
          id: 1,
          code: "USD",
          name: "US Dollar",
          prefix: "$",
          rate: 1,
          timeUpdatedRate: expect.stringMatching(timestamp),
          decimals: 2,
        },
        {
          id: 2,
          code: "EUR",
          name: "Euro",
          prefix: "€",
          rate: 1.087,
          timeUpdatedRate: expect.stringMatching(timestamp),
          decimals: 2,
        },
      ]);
      for (const item of found as CurrencyItem[]) {
        const setAt = Date.parse(`${item.timeUpdatedRate.replace(" ", "T")}Z`);
        // Seeded when this test's server started (to the second).
        expect(setAt).toBeGreaterThanOrEqual(Math.floor(seededAt / 1000) * 1000 - 1000);
        expect(setAt).toBeLessThanOrEqual(Date.now());
      }
    });

    it("shows each caller their own profile and nothing of anyone else's", async () => {
      const read = make(api);
      const [acme, bolt] = [
        await read.profile(tokens["acme"] ?? ""),
        await read.profile(tokens["bolt"] ?? ""),
      ];
      const unknown = {
        email: null,
        country: null,
        city: null,
        address: null,
        zipcode: null,
        phone: null,
        lastlogin: null,
        lastip: null,
        withdraw_commission: null,
        processing_commission: null,
        document_uploaded: null,
        document_verify: null,
        codephrase: null,
      };
      expect(acme).toEqual({
        id: 1,
        fullname: "Acme Shop",
        date_created: expect.stringMatching(timestamp),
        is_excharger: false,
        ...unknown,
      });
      expect(bolt).toEqual({
        id: 2,
        fullname: "Bolt Exchange",
        date_created: expect.stringMatching(timestamp),
        is_excharger: true,
        ...unknown,
      });
      // No value of one user's profile (nor a secret of the fixture) shows in the other's.
      const text = JSON.stringify(acme);
      for (const other of ["Bolt", "bolt", "Corner", "acme-pass", "acme-secret", "acme-form-token"]) {
        expect(text).not.toContain(other);
      }
    });

    it("answers Unauthorized without a valid token", async () => {
      const read = make(api);
      expect(await read.currencies("not-a-token")).toMatch(/Unauthorized/);
      expect(await read.profile("not-a-token")).toMatch(/Unauthorized/);
    });
  });

  it("moves timeUpdatedRate when the rate changes, and only then", async () => {
    const read = restRead(api);
    const em = api.server.runtime.db.em();
    // The rate was set a minute ago, rather than waiting for the clock's next second: the time is
    // given in whole seconds, and only the trigger on a rate change may move it.
    await em.execute(
      "update currencies set rate_updated_at = now() - interval '1 minute' where code = 'EUR'",
    );
    const before = (await read.currencies(tokens["acme"] ?? "")) as CurrencyItem[];
    await em.execute("update currencies set name = 'Euro' where code = 'EUR'");
    const renamed = (await read.currencies(tokens["acme"] ?? "")) as CurrencyItem[];
    expect(renamed[1]?.timeUpdatedRate).toBe(before[1]?.timeUpdatedRate);
    await em.execute("update currencies set rate = 1.1 where code = 'EUR'");
    const after = (await read.currencies(tokens["acme"] ?? "")) as CurrencyItem[];
    expect(after[1]?.rate).toBe(1.1);
    expect((after[1]?.timeUpdatedRate ?? "") > (before[1]?.timeUpdatedRate ?? "")).toBe(true);
    expect(after[0]?.timeUpdatedRate).toBe(before[0]?.timeUpdatedRate);
  });

  it("REST answers 401 in the error shape without a token", async () => {
    for (const path of ["/api/currencies", "/api/user/me"]) {
      const response = await api.call("GET", path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
    }
  });
});
