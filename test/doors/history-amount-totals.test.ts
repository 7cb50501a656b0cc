import { countBulkTransactionsSql, dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

/**
 * Totals under `minAmount`/`maxAmount` are counted from the rows up to a cap of 1 000 (no counter
 * answers them, migration 0015): exact up to the cap, "at least 1 000" past it, with whether more
 * pages follow, on every door. Without amount bounds REST's meta is the specification's four fields.
 */
describe("history totals under amount bounds, on every door", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let token: string;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    database = await createSeededDatabase();
    // 1 000 transfers of 50.01 and one of 50.02 from acme's U100000010, in the last hour (no
    // other transaction of the sample world has these amounts): SQL, as a bulk load writes them.
    await queryDatabase(
      database.url,
      `insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor, created_at, updated_at)
        select 1, 1, 3, f.id, t.id, f.currency_id, a.amount, 1, a.amount + 1, a.amount,
          now() - n * interval '1 second', now() - n * interval '1 second'
        from generate_series(1, 1001) n
        cross join lateral (select case when n = 1001 then 5002 else 5001 end as amount) a
        cross join wallets f cross join wallets t
        where f.number = 'U100000010' and t.number = 'U100000020'`,
    );
    // Counted as the movement counts its own (no trigger does it since migration 0021).
    await queryDatabase(database.url, countBulkTransactionsSql("t.amount_minor in (5001, 5002)"));
    api = await startTestServer({ database });
    token = await api.token("acme");
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    if (database) await dropDatabase(database.name);
  });

  const rest = async (query: string) => {
    const response = await api.call(
      "GET",
      `/api/transactions/histories?startDate=2000-01-01&endDate=${today}&${query}`,
      { token },
    );
    expect(response.status).toBe(200);
    return response.body.data as { items: { amount_to: number }[]; meta: Record<string, unknown> };
  };

  it("REST: exact up to the cap, at least the cap past it, and has_more says whether a page follows", async () => {
    // Exactly the cap: exact.
    const atCap = await rest("page=1&itemsPerPage=100&minAmount=50.01&maxAmount=50.01");
    expect(atCap.meta).toEqual({
      per_page: 100,
      page: 1,
      last_page: 10,
      total: 1000,
      has_more: true,
      total_exact: true,
    });
    expect(atCap.items).toHaveLength(100);
    const lastOfCap = await rest("page=10&itemsPerPage=100&minAmount=50.01&maxAmount=50.01");
    expect(lastOfCap.meta).toMatchObject({ page: 10, total: 1000, has_more: false, total_exact: true });
    expect(lastOfCap.items).toHaveLength(100);

    // One past the cap: the total stops at the cap, and says so.
    const pastCap = await rest("page=1&itemsPerPage=100&minAmount=50.01&maxAmount=50.02");
    expect(pastCap.meta).toEqual({
      per_page: 100,
      page: 1,
      last_page: 10,
      total: 1000,
      has_more: true,
      total_exact: false,
    });
    // The pages go on past the capped total: has_more is true on page 10, the 1 001st is on page 11.
    const tenth = await rest("page=10&itemsPerPage=100&minAmount=50.01&maxAmount=50.02");
    expect(tenth.meta).toMatchObject({ total: 1000, has_more: true, total_exact: false });
    const eleventh = await rest("page=11&itemsPerPage=100&minAmount=50.01&maxAmount=50.02");
    expect(eleventh.items).toHaveLength(1);
    expect(eleventh.meta).toMatchObject({ has_more: false, total_exact: false });

    // Few matches: exact.
    const few = await rest("page=1&itemsPerPage=10&minAmount=50.02&maxAmount=50.02");
    expect(few.meta).toEqual({
      per_page: 10,
      page: 1,
      last_page: 1,
      total: 1,
      has_more: false,
      total_exact: true,
    });
    expect(few.items.map((item) => item.amount_to)).toEqual([50.02]);
  });

  it("REST without amount bounds: the specification's meta, exact from the counts", async () => {
    const all = await rest("page=1&itemsPerPage=100");
    const [counted] = await queryDatabase<{ n: string }>(
      database.url,
      `select count(*)::text as n from transactions t
        where t.wallet_from_id in (select id from wallets where user_id = 1)
           or t.wallet_to_id in (select id from wallets where user_id = 1)`,
    );
    expect(Number(counted?.n)).toBeGreaterThan(1001);
    expect(all.meta).toEqual({
      per_page: 100,
      page: 1,
      last_page: Math.ceil(Number(counted?.n) / 100),
      total: Number(counted?.n),
    });
  });

  it("GraphQL and tRPC: totals exact up to the cap, marked inexact past it; hasNextPage as before", async () => {
    const search = async (minAmount: string, maxAmount: string) => {
      const response = await api.call("POST", "/graphql", {
        token,
        body: {
          query: `query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) {
            pageInfo { hasNextPage } totals { currency count amount commission exact } } }`,
          variables: { filter: { minAmount, maxAmount } },
        },
      });
      return response.body.data.transactions;
    };
    expect(await search("50.01", "50.01")).toEqual({
      pageInfo: { hasNextPage: true },
      totals: [{ currency: "USD", count: 1000, amount: "50010.00", commission: "10.00", exact: true }],
    });
    const past = await search("50.01", "50.02");
    expect(past.pageInfo).toEqual({ hasNextPage: true });
    expect(past.totals).toEqual([
      { currency: "USD", count: 1000, amount: expect.any(String), commission: "10.00", exact: false },
    ]);
    // The 1 000 counted are some of the 1 001: their sum is at least 1 000 × 50.01.
    expect(["50010.00", "50010.01"]).toContain(past.totals[0].amount);
    expect(await search("50.02", "50.02")).toEqual({
      pageInfo: { hasNextPage: false },
      totals: [{ currency: "USD", count: 1, amount: "50.02", commission: "0.01", exact: true }],
    });

    const trpc = trpcClient(api.url, token);
    const capped = await trpc.transactions.query({ first: 20, minAmount: "50.01", maxAmount: "50.02" });
    expect(capped.hasNextPage).toBe(true);
    expect(capped.totals).toEqual([
      expect.objectContaining({ currency: "USD", count: 1000, commission: "10.00", exact: false }),
    ]);
    const exact = await trpc.transactions.query({ first: 20, minAmount: "50.01", maxAmount: "50.01" });
    expect(exact.totals).toEqual([
      expect.objectContaining({ currency: "USD", count: 1000, amount: "50010.00", exact: true }),
    ]);
    // Money in and out are added up over at most 1 000 matches too: exactly at the cap they are
    // given (1 000 × 50.02 out, the fee included; nothing in), past it they are not (null).
    expect(exact.totals[0]).toMatchObject({
      completed: 1000,
      moneyIn: "0.00",
      moneyOut: "50020.00",
      net: "-50020.00",
    });
    expect(capped.totals[0]).toMatchObject({ completed: null, moneyIn: null, moneyOut: null, net: null });
    // Without amount bounds the totals come from the counts and are exact.
    const all = await trpc.transactions.query({ first: 1 });
    expect(all.totals.every((total) => total.exact)).toBe(true);
    expect(all.totals.find((total) => total.currency === "USD")?.count).toBeGreaterThan(1001);
    expect(all.totals.find((total) => total.currency === "USD")?.moneyIn).toBeNull();
  });

  it("money in and out: past the cap when the caller's scans together pass it, though no one scan does", async () => {
    // Between acme's U100000010 and bolt's U100000020, in the last hour: 50.03 out of acme 600
    // times and in 600 times (1 200 matches, 600 on each side's scan); 50.04 500 times each way
    // (1 000 matches: exactly the cap).
    await queryDatabase(
      database.url,
      `insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor, created_at, updated_at)
        select f.user_id, 1, 3, f.id, t.id, f.currency_id, a.amount, 1, a.amount + 1, a.amount,
          now() - n * interval '1 second', now() - n * interval '1 second'
        from (values (5003, 600), (5004, 500)) as a(amount, times)
        cross join lateral generate_series(1, a.times) n
        cross join (values ('U100000010', 'U100000020'), ('U100000020', 'U100000010')) as pair(sender, receiver)
        join wallets f on f.number = pair.sender join wallets t on t.number = pair.receiver`,
    );
    await queryDatabase(database.url, countBulkTransactionsSql("t.amount_minor in (5003, 5004)"));
    const trpc = trpcClient(api.url, token);
    const past = await trpc.transactions.query({ first: 20, minAmount: "50.03", maxAmount: "50.03" });
    expect(past.totals).toEqual([
      expect.objectContaining({ currency: "USD", count: 1000, exact: false, completed: null, moneyIn: null }),
    ]);
    const atCap = await trpc.transactions.query({ first: 20, minAmount: "50.04", maxAmount: "50.04" });
    // In: 500 × 50.04; out: 500 × 50.05 (the fee included).
    expect(atCap.totals).toEqual([
      expect.objectContaining({
        currency: "USD",
        count: 1000,
        exact: true,
        completed: 1000,
        moneyIn: "25020.00",
        moneyOut: "25025.00",
        net: "-5.00",
      }),
    ]);
  });
});
