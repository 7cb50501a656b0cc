import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@purse/engine";
import { freePort } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDistributed } from "../../packages/engine/src/persistence/citus-routing.ts";
import { restDoor } from "../doors/doors.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { type DistributedPurse, distributedPurse } from "../support/distributed-purse.ts";
import { startTestServer } from "../support/test-server.ts";

/**
 * docs/sharding.md, "History": on the distributed schema a history page, a search page and an
 * export of a day read a number of rows bounded by the page (and the totals' cap), not by the
 * history's size. A merchant's history is grown from 10k to 110k transactions (SQL through the
 * coordinator, half sent by acme on its shard, half received from bolt on bolt's), and what the
 * workers did for each read is taken from `pg_stat_statements` on every worker: the rows the
 * statements on `transactions` shards returned and the buffers they touched, figures a loaded
 * machine does not change (wall time would). The pages are compared with the rows themselves.
 */
const vendored = fileURLToPath(new URL("../../../shared/vendor/citus/citus-13.2.2.tar.gz", import.meta.url));
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

type Read = "history" | "deposits" | "search" | "searchNext" | "exportToday";

interface Cost {
  rows: number;
  buffers: number;
}

describe.skipIf(!installed && !existsSync(vendored))("a large history on a distributed Purse", () => {
  let cluster: CitusCluster;
  let purse: DistributedPurse;
  const database = () => purse.database.name;
  const query = <Row>(text: string, values: unknown[] = []) =>
    cluster.coordinator.query<Row>(text, values, database());
  let acmeWallet: string;
  let boltWallet: string;
  let numbers: { acme: string; bolt: string };
  let currency: string;
  const today = new Date().toISOString().slice(0, 10);
  const since = "2020-01-01";

  beforeAll(async () => {
    await ensureCitusInstalled();
    cluster = await startCitusCluster(2, ["shared_preload_libraries = 'citus,pg_stat_statements'"]);
    purse = await distributedPurse(cluster, `purse_citus_scale_${process.pid}`);
    // Through the coordinator, which creates it on every worker too (Citus refuses DDL on a worker).
    await query("create extension pg_stat_statements");
    const wallets = await query<{ id: string; user_id: string; currency_id: string; number: string }>(
      `select id::text, user_id::text, currency_id::text, number from wallets
       where user_id in (1, 2) and currency_id = (select id from currencies where code = 'USD') order by id`,
    );
    acmeWallet = wallets.find((wallet) => wallet.user_id === "1")?.id ?? "";
    boltWallet = wallets.find((wallet) => wallet.user_id === "2")?.id ?? "";
    currency = wallets[0]?.currency_id ?? "";
    numbers = {
      acme: wallets.find((wallet) => wallet.user_id === "1")?.number ?? "",
      bolt: wallets.find((wallet) => wallet.user_id === "2")?.number ?? "",
    };
    expect([acmeWallet, boltWallet]).not.toContain("");
  }, 30 * 60_000);
  afterAll(async () => {
    await purse?.api.close();
    await cluster?.stop();
  });

  /**
   * `count` more transactions of acme's USD wallet, older than every one before (a minute apart,
   * ending a day before the oldest): even ones sent by acme to bolt (on acme's shard), odd ones
   * received from bolt (on bolt's); one in 500 a deposit into acme's wallet.
   */
  async function grow(count: number): Promise<void> {
    await query(
      `insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id, currency_id, amount_minor,
         amount_from_minor, amount_to_minor, description, created_at, updated_at)
       select case when g % 2 = 0 or g % 500 = 0 then 1 else 2 end,
         case when g % 500 = 0 then 2 else 1 end, 3,
         case when g % 500 = 0 then null when g % 2 = 0 then $1::bigint else $2::bigint end,
         case when g % 500 = 0 or g % 2 = 1 then $1::bigint else $2::bigint end,
         $3::integer, 100 + g % 7, 100 + g % 7, 100 + g % 7, 'scale ' || g,
         oldest - interval '1 day' - g * interval '1 minute', oldest - interval '1 day' - g * interval '1 minute'
       from generate_series(1, $4::integer) as g,
         (select coalesce(min(created_at), now()) as oldest from transactions) as o`,
      [acmeWallet, boltWallet, currency, count],
    );
  }

  /** What the statements on `transactions` shards did on the workers while `work` ran. */
  async function workersCost(work: () => Promise<void>): Promise<Cost> {
    for (const worker of cluster.workers)
      await worker.query("select pg_stat_statements_reset()", [], database());
    await work();
    const cost = { rows: 0, buffers: 0 };
    for (const worker of cluster.workers) {
      const [found] = await worker.query<{ rows: string; buffers: string }>(
        `select coalesce(sum(rows), 0)::text as rows,
           coalesce(sum(shared_blks_hit + shared_blks_read), 0)::text as buffers
         from pg_stat_statements
         where dbid = (select oid from pg_database where datname = current_database())
           and query ~ '\\mtransactions_[0-9]+\\M'`,
        [],
        database(),
      );
      cost.rows += Number(found?.rows);
      cost.buffers += Number(found?.buffers);
    }
    return cost;
  }

  /** The newest `limit` of acme's transactions (of `type`, if given), as the history orders them. */
  async function newest(limit: number, type: number | null = null, offset = 0): Promise<number[]> {
    const found = await query<{ id: string }>(
      `select id::text from transactions
       where (wallet_from_id in (select id from wallets where user_id = 1)
          or wallet_to_id in (select id from wallets where user_id = 1))
         and ($1::smallint is null or type = $1::smallint)
       order by created_at desc, id desc limit $2 offset $3`,
      [type, limit, offset],
    );
    return found.map((row) => Number(row.id));
  }

  /** The reads measured, each checked against the rows: history pages, a search's two pages, a day's export. */
  async function readsAndTheirCost(token: string): Promise<Partial<Record<Read, Cost>>> {
    const costs: Partial<Record<Read, Cost>> = {};
    const history = (extra: string) =>
      purse.api.call(
        "GET",
        `/api/transactions/histories?startDate=${since}&endDate=${today}&page=1&itemsPerPage=20${extra}`,
        { token },
      );
    let answer = await history("");
    costs.history = await workersCost(async () => {
      answer = await history("");
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.items.map((item: { id: number }) => item.id)).toEqual(await newest(20));

    costs.deposits = await workersCost(async () => {
      answer = await history("&type=2");
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.items.map((item: { id: number }) => item.id)).toEqual(await newest(20, 2));

    const search = (after: string | null) =>
      purse.api.call("POST", "/graphql", {
        token,
        body: {
          query: `query ($after: String) { transactions(first: 20, after: $after) {
            edges { node { id } } pageInfo { endCursor hasNextPage } totals { currency count } } }`,
          variables: { after },
        },
      });
    let first = await search(null);
    costs.search = await workersCost(async () => {
      first = await search(null);
    });
    expect(first.body.errors).toBeUndefined();
    const connection = first.body.data.transactions;
    expect(connection.edges.map((edge: { node: { id: number } }) => Number(edge.node.id))).toEqual(
      await newest(20),
    );
    let second = first;
    costs.searchNext = await workersCost(async () => {
      second = await search(connection.pageInfo.endCursor);
    });
    expect(
      second.body.data.transactions.edges.map((edge: { node: { id: number } }) => Number(edge.node.id)),
    ).toEqual(await newest(20, null, 20));

    let exported = answer;
    costs.exportToday = await workersCost(async () => {
      exported = await purse.api.call("GET", `/api/transactions/export?from=${today}&until=${today}`, {
        token,
      });
    });
    expect(exported.status).toBe(200);
    const [day] = await query<{ n: string }>(
      `select count(*)::text as n from transactions
       where (wallet_from_id in (select id from wallets where user_id = 1)
          or wallet_to_id in (select id from wallets where user_id = 1))
         and created_at >= $1::date and created_at < $1::date + 1`,
      [today],
    );
    expect(String(exported.body).trim().split("\n").length - 1).toBe(Number(day?.n));
    return costs;
  }

  it("reads the same number of rows for a page at 10k and at 110k transactions", async () => {
    const token = await purse.api.token("acme");
    // Today's transactions, for the export of the day.
    for (const amount of ["1.00", "2.00"]) {
      const moved = await restDoor(purse.api).transfer(token, {
        walletFrom: numbers.acme,
        walletTo: numbers.bolt,
        amount,
      });
      expect(moved.ok, JSON.stringify(moved)).toBe(true);
    }
    await grow(10_000);
    const small = await readsAndTheirCost(token);
    const load = [loadavg()[0]];
    await grow(100_000);
    const [{ n } = { n: "0" }] = await query<{ n: string }>(
      "select count(*)::text as n from transactions where wallet_to_id = $1 or wallet_from_id = $1",
      [acmeWallet],
    );
    expect(Number(n)).toBeGreaterThan(110_000);
    const large = await readsAndTheirCost(token);
    load.push(loadavg()[0]);
    console.info(
      `Citus history reads at 10k / 110k transactions (load average ${load.map((l) => l?.toFixed(1)).join(", ")}):`,
      JSON.stringify({ small, large }),
    );
    // A filter few rows match reads until it has its page or the wallet's side is exhausted, on
    // every database (the deposits: none sent from acme's wallet): not a page's cost, not compared.
    const { deposits: _rare, ...paged } = large;
    for (const [read, cost] of Object.entries(paged)) {
      const before = small[read as Read] as Cost;
      expect(cost.rows, `${read}: rows returned by the workers`).toBeLessThanOrEqual(before.rows * 1.5 + 50);
      expect(cost.buffers, `${read}: buffers touched on the workers`).toBeLessThanOrEqual(
        before.buffers * 1.5 + 50,
      );
    }
  }, 600_000);

  it("serves history, search and export from a follower formation (DATABASE_READ_URL at the coordinator's standby)", async () => {
    const readUrl = await cluster.startFollowers(database());
    const follower = await startTestServer({
      database: purse.database,
      env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", DATABASE_READ_URL: readUrl },
    });
    try {
      const token = await purse.api.token("acme");
      const reads = [
        ["GET", `/api/transactions/histories?startDate=${since}&endDate=${today}&page=2&itemsPerPage=50`],
        [
          "GET",
          `/api/transactions/histories?startDate=${since}&endDate=${today}&page=1&itemsPerPage=20&type=2`,
        ],
        ["GET", `/api/transactions/export?from=${today}&until=${today}`],
        ["POST", "/graphql"],
      ] as const;
      const search = {
        query: `{ transactions(first: 30) { edges { node { id amount amountFrom amountTo createdAt } }
          pageInfo { endCursor hasNextPage } totals { currency count amount moneyIn moneyOut } } }`,
      };
      for (const [method, path] of reads) {
        const options = { token, ...(method === "POST" ? { body: search } : {}) };
        const onPrimary = await purse.api.call(method, path, options);
        expect(onPrimary.status, path).toBe(200);
        // The token's check may read the standby before it has replayed the token: asked again until then.
        await expect
          .poll(async () => (await follower.call(method, path, options)).status, { timeout: 15_000 })
          .toBe(200);
        const onFollower = await follower.call(method, path, options);
        expect(onFollower.body, path).toEqual(onPrimary.body);
      }
      // The follower's reads were the standbys' (the workers' secondaries read the shards).
      let read = 0;
      for (const standby of cluster.standbys.slice(1)) {
        const [found] = await standby.query<{ calls: string }>(
          `select coalesce(sum(calls), 0)::text as calls from pg_stat_statements
           where query ~ '\\mtransactions_[0-9]+\\M'`,
          [],
          database(),
        );
        read += Number(found?.calls);
      }
      expect(read).toBeGreaterThan(0);

      // A process whose primary has never answered (started during an outage) reads the standby in
      // the distributed form: the standby's own catalogue says the tables are distributed.
      const deadPrimary = new URL(purse.database.url);
      deadPrimary.port = String(await freePort());
      const outage = await openDatabase({ kind: "postgres", url: deadPrimary.toString() }, { readUrl });
      try {
        expect(await outage.snapshot(async (tx) => isDistributed(tx))).toBe(true);
      } finally {
        await outage.close();
      }
    } finally {
      await follower.close();
    }
  }, 300_000);
});
