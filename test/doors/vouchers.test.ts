import { auditLedger } from "@purse/engine";
import { dropDatabase, sampleFixtureWithDora } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { trpcClient, trpcOutcome } from "../support/trpc-client.ts";
import { graphqlDoor, restDoor, trpcDoor } from "./doors.ts";

/**
 * Vouchers bought and listed (beyond the spec), on REST, GraphQL and tRPC: the same purchase, the
 * same list (codes for their buyer only), the same refusals, and activation by the other role.
 */
interface Bought {
  number: string;
  code: string | null;
  amount: number;
  status: number;
}
type Result<T> = T | string;

interface VoucherDoor {
  buy(token: string, walletFrom: string, amount: string): Promise<Result<Bought>>;
  list(token: string, page?: number): Promise<Result<{ items: Bought[]; total: number; lastPage: number }>>;
}

const asBought = (item: {
  voucherNumber: string;
  secret: string | null;
  amount: number | string;
  status: number;
}): Bought => ({
  number: item.voucherNumber,
  code: item.secret,
  amount: Number(item.amount),
  status: item.status,
});

function restVouchers(api: TestServer): VoucherDoor {
  return {
    async buy(token, walletFrom, amount) {
      const response = await api.call("POST", "/api/vouchers/buy", {
        token,
        body: { wallet_from: walletFrom, amount },
      });
      return response.status === 200 ? asBought(response.body.data) : response.body.message;
    },
    async list(token, page) {
      const response = await api.call("GET", `/api/vouchers${page === undefined ? "" : `?page=${page}`}`, {
        token,
      });
      if (response.status !== 200) return response.body.message;
      const { items, meta } = response.body.data;
      return { items: items.map(asBought), total: meta.total, lastPage: meta.last_page };
    },
  };
}

function graphqlVouchers(api: TestServer): VoucherDoor {
  const fields = "voucherNumber secret amount status";
  return {
    async buy(token, walletFrom, amount) {
      const response = await api.call("POST", "/graphql", {
        token,
        body: {
          query: `mutation($input: BuyVoucherInput!) { buyVoucher(input: $input) {
            __typename ... on PurseError { message } ... on MutationBuyVoucherSuccess { data { ${fields} } } } }`,
          variables: { input: { walletFrom, amount } },
        },
      });
      const result = response.body.data?.buyVoucher;
      if (!result) return response.body.errors?.[0]?.message ?? "no data";
      return result.__typename === "PurseError" ? result.message : asBought(result.data);
    },
    async list(token, page) {
      const response = await api.call("POST", "/graphql", {
        token,
        body: {
          query: `query($page: Int) { vouchers(page: $page) { items { ${fields} } meta { total lastPage } } }`,
          variables: { page: page ?? null },
        },
      });
      const found = response.body.data?.vouchers;
      if (!found) return response.body.errors?.[0]?.message ?? "no data";
      return { items: found.items.map(asBought), total: found.meta.total, lastPage: found.meta.lastPage };
    },
  };
}

function trpcVouchers(api: TestServer): VoucherDoor {
  const client = (token: string) => trpcClient(api.url, token);
  const attempt = trpcOutcome;
  return {
    buy: (token, walletFrom, amount) =>
      attempt(async () => asBought(await client(token).buyVoucher.mutate({ walletFrom, amount }))),
    list: (token, page) =>
      attempt(async () => {
        const { items, meta } = await client(token).vouchers.query({ page: page ?? null });
        return { items: items.map(asBought), total: meta.total, lastPage: meta.lastPage };
      }),
  };
}

const doors = [
  ["REST", restVouchers, restDoor],
  ["GraphQL", graphqlVouchers, graphqlDoor],
  ["tRPC", trpcVouchers, trpcDoor],
] as const;

describe.each(doors)("vouchers bought and listed through %s", (_name, makeVouchers, makeDoor) => {
  let database: SeededDatabase;
  let api: TestServer;
  const tokens: Record<string, string> = {};
  const token = (name: string) => tokens[name] ?? "";
  let vouchers: VoucherDoor;
  beforeAll(async () => {
    database = await createSeededDatabase(sampleFixtureWithDora());
    api = await startTestServer({ database });
    for (const name of ["acme", "bolt", "cafe", "dora"]) tokens[name] = await api.token(name);
    vouchers = makeVouchers(api);
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await dropDatabase(database.name);
  });

  const balances = async (name: string): Promise<Record<string, number>> => {
    const response = await api.call("GET", "/api/wallets", { token: token(name) });
    return Object.fromEntries(
      response.body.data.map((wallet: { number: string; amount: number }) => [wallet.number, wallet.amount]),
    );
  };

  it("sells a partner a voucher that a merchant activates; the ledger audits green", async () => {
    const bought = await vouchers.buy(token("bolt"), "U100000020", "40.00");
    if (typeof bought === "string") throw new Error(bought);
    expect(bought).toMatchObject({ amount: 40, status: 0 });
    expect(bought.code).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    expect((await balances("bolt"))["U100000020"]).toBe(210);
    // A partner's voucher is not the partner's to activate; the merchant's, less 2 % commission.
    const own = await makeDoor(api).activateVoucher(
      token("bolt"),
      bought.number,
      bought.code ?? "",
      "U100000020",
    );
    expect(own).toEqual({ ok: false, message: "Voucher invalid" });
    const activated = await makeDoor(api).activateVoucher(
      token("acme"),
      bought.number,
      bought.code ?? "",
      "U100000010",
    );
    expect(activated.ok).toBe(true);
    expect((await balances("acme"))["U100000010"]).toBe(539.2);
    expect((await auditLedger(api.server.runtime.db)).ok).toBe(true);
    const list = await vouchers.list(token("bolt"));
    if (typeof list === "string") throw new Error(list);
    expect(list.items[0]).toEqual({ ...bought, status: 1 });
  });

  it("lists only the caller's own vouchers: another user's codes never appear", async () => {
    const cafes = await vouchers.buy(token("cafe"), "U100000030", "5");
    if (typeof cafes === "string") throw new Error(cafes);
    const [acme, bolt, cafe] = [
      await vouchers.list(token("acme")),
      await vouchers.list(token("bolt")),
      await vouchers.list(token("cafe")),
    ];
    expect(cafe).toEqual({ items: [cafes], total: 1, lastPage: 1 });
    for (const other of [acme, bolt]) {
      expect(JSON.stringify(other)).not.toContain(cafes.code ?? "-");
      expect(JSON.stringify(other)).not.toContain(cafes.number);
    }
    // The fixture's vouchers: V-0002 is acme's, V-0001 bolt's; each sees its own code only.
    expect(JSON.stringify(acme)).toContain("4444-5555-6666");
    expect(JSON.stringify(acme)).not.toContain("1111-2222-3333");
    expect(await vouchers.list(token("cafe"), 0)).toBe("This value should be between 1 and 100000.");
  });

  it.each([
    ["a EUR wallet", "acme", "E100000011", "10", "Only USD wallet allowed"],
    ["below the minimum", "acme", "U100000010", "0.50", "Minimum amount exceeded 1.00 for USD"],
    ["short of funds", "cafe", "U100000030", "70.01", "balance - amount - commission < 0"],
    ["another user's wallet", "cafe", "U100000010", "5", "Wallet from not exists"],
  ])("refuses %s with the transfer's text", async (_case, user, wallet, amount, message) => {
    const before = await balances(user);
    expect(await vouchers.buy(token(user), wallet, amount)).toBe(message);
    expect(await balances(user)).toEqual(before);
  });

  it("refuses a blocked buyer", async () => {
    await sqlOn(database, "update users set blocked = true where login = 'dora'");
    try {
      expect(await vouchers.buy(token("dora"), "U100000040", "10")).toBe("User is blocked");
    } finally {
      await sqlOn(database, "update users set blocked = false where login = 'dora'");
    }
  });

  it("refuses the second of two simultaneous identical purchases with Route locked", async () => {
    // A second session holds dora's wallet row, so the first purchase waits inside its route lock.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from wallets where number = 'U100000040' for update");
      const first = vouchers.buy(token("dora"), "U100000040", "7.00");
      await waitForLockWait(database);
      const second = await vouchers.buy(token("dora"), "U100000040", "7.00");
      await holder.query("rollback");
      expect(second).toBe("Route locked to avoid duplication");
      expect(await first).toMatchObject({ amount: 7, status: 0 });
    } finally {
      await holder.end();
    }
    expect((await balances("dora"))["U100000040"]).toBe(93);
  });
});

async function sqlOn(database: SeededDatabase, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Until a session of the database waits on a row lock. */
async function waitForLockWait(database: SeededDatabase): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (let tries = 0; tries < 200; tries += 1) {
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
        [database.name],
      );
      if ((rows[0]?.n ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("no request waited on the held row");
  } finally {
    await client.end();
  }
}
