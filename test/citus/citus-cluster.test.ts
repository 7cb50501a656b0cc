import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@purse/engine";
import { sampleFixture } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlDoor, restDoor, trpcDoor } from "../doors/doors.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { purseCli } from "../support/purse-cli.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Contract, "Scale past one primary", as far as it goes today (docs/sharding.md): Purse on a Citus
 * 13.2.2 cluster of a coordinator and two workers, built from ../shared/vendor/citus when it is not
 * installed (scripts/citus/build.sh; CI builds it before the tests). `purse migrate`, then the
 * distribution step `purse citus distribute`, then a seed and the three doors on the coordinator;
 * and what Citus still refuses of the schema, in Citus's own words, as docs/sharding.md lists it.
 */
const vendored = fileURLToPath(new URL("../../../shared/vendor/citus/citus-13.2.2.tar.gz", import.meta.url));
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

describe.skipIf(!installed && !existsSync(vendored))(
  "Purse on a Citus cluster (a coordinator, two workers)",
  () => {
    let cluster: CitusCluster;
    const name = `purse_citus_${process.pid}`;
    let url: string;

    beforeAll(async () => {
      await ensureCitusInstalled();
      cluster = await startCitusCluster();
      url = await cluster.createDatabase(name);
    }, 30 * 60_000);
    afterAll(async () => {
      await cluster?.stop();
    });

    it("starts a coordinator that sees both workers", async () => {
      const nodes = await cluster.coordinator.query<{ node_port: string }>(
        "select node_port from citus_get_active_worker_nodes() order by node_port",
        [],
        name,
      );
      expect(nodes.map((node) => Number(node.node_port))).toEqual(
        cluster.workers.map((worker) => worker.port).sort((a, b) => a - b),
      );
    });

    describe("migrate, distribute, seed, serve", () => {
      const database = () => ({ name, url });
      let api: TestServer;
      let fixtureDir: string;
      afterAll(async () => {
        await api?.close();
        if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
      });

      it("runs purse migrate and purse citus distribute, which is idempotent", async () => {
        const migrated = await purseCli(database(), ["migrate"]);
        expect(migrated.stderr).toBe("");
        expect(migrated.code).toBe(0);
        const distributed = await purseCli(database(), ["citus", "distribute"]);
        expect(distributed.stderr).toBe("");
        expect(distributed.stdout).toContain("Reference tables made on");
        expect(distributed.stdout).toContain(": settings, rates.");
        const again = await purseCli(database(), ["citus", "distribute"]);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain(": none. Already reference tables: settings, rates.");
        // A reference table has one placement on every node: the coordinator and both workers.
        const placements = await cluster.coordinator.query<{ table_name: string; nodes: string }>(
          `select table_name::text, count(distinct nodeport)::text as nodes from citus_shards
         where citus_table_type = 'reference' group by 1 order by 1`,
          [],
          name,
        );
        expect(placements).toEqual([
          { table_name: "rates", nodes: "3" },
          { table_name: "settings", nodes: "3" },
        ]);
      });

      it("seeds, then moves money through REST, GraphQL and tRPC, pays a checkout, sells and activates a voucher, lists history; purse audit holds", async () => {
        fixtureDir = await mkdtemp(join(tmpdir(), "purse-citus-fixture-"));
        const fixtureFile = join(fixtureDir, "sample.json");
        await writeFile(fixtureFile, JSON.stringify(sampleFixture()));
        const seeded = await purseCli(database(), ["seed", fixtureFile]);
        expect(seeded.stderr).toBe("");
        expect(seeded.code).toBe(0);

        api = await startTestServer({ database: database() });
        const acme = await api.token("acme");
        const bolt = await api.token("bolt");
        const ids: number[] = [];
        for (const door of [restDoor(api), graphqlDoor(api), trpcDoor(api)]) {
          const moved = await door.transfer(acme, {
            walletFrom: "U100000010",
            walletTo: "U100000020",
            amount: "1.25",
          });
          expect(moved, door.name).toMatchObject({ ok: true });
          if (moved.ok) ids.push(moved.id);
        }
        expect(new Set(ids).size).toBe(3);

        const checkout = await createCheckout(api, { url: "https://shop.example" }, "2.00");
        const paid = await api.call("POST", "/api/processing/pay", {
          body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
        });
        expect(paid.status).toBe(200);

        const voucher = await api.call("POST", "/api/vouchers/buy", {
          token: bolt,
          body: { wallet_from: "U100000020", amount: "4.00" },
        });
        expect(voucher.status).toBe(200);
        const activated = await restDoor(api).activateVoucher(
          acme,
          voucher.body.data.voucherNumber,
          voucher.body.data.secret,
          "U100000010",
        );
        expect(activated.ok).toBe(true);

        const today = new Date().toISOString().slice(0, 10);
        const history = await api.call(
          "GET",
          `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
          { token: acme },
        );
        expect(history.status).toBe(200);
        const listed = history.body.data.items.map((item: { id: number }) => item.id);
        expect(listed).toEqual(expect.arrayContaining(ids));

        const audit = await purseCli(database(), ["audit"]);
        expect(audit.stdout).toContain("The ledger is balanced.");
        expect(audit.code).toBe(0);
      }, 120_000);
    });

    it("is refused by Citus for every other table, in Citus's words as docs/sharding.md lists them", async () => {
      const probe = `${name}_probe`;
      const migrating = await openDatabase(
        { kind: "postgres", url: await cluster.createDatabase(probe) },
        { poolSize: 2 },
      );
      try {
        await migrating.migrate();
      } finally {
        await migrating.close();
      }
      const client = new pg.Client({ connectionString: cluster.coordinator.url(probe) });
      await client.connect();
      try {
        expect(await usersAlone(client)).toEqual({
          convertedToCitusLocal: expect.arrayContaining(["wallets", "transactions", "postings", "vouchers"]),
          distributingWallets: "cannot complete operation on a table with identity column",
        });
        expect(await eachTableWithoutForeignKeys(client)).toEqual(refusedToday);
      } finally {
        await client.end();
      }
    }, 120_000);
  },
);

const uniqueWithoutOwner =
  'cannot create constraint on "%s" / Distributed relations cannot have UNIQUE, EXCLUDE, or PRIMARY KEY constraints that do not include the partition column (with an equality operator if EXCLUDE).';
const noOwnerColumn = 'column "user_id" of relation "%s" does not exist';
const triggers = 'cannot distribute relation "%s" because it has triggers';

/**
 * The live schema's tables in the order docs/sharding.md distributes them, each with its
 * distribution column (none: a reference table), and what Citus 13.2.2 answers today once the
 * foreign keys are out of the way ("ok": it takes the table).
 */
const plan: [table: string, column: string | null, answer: string][] = [
  ["settings", null, "ok"],
  ["rates", null, "ok"],
  ["currencies", null, triggers],
  ["users", null, "ok"],
  ["clients", null, "ok"],
  ["wallets", "user_id", uniqueWithoutOwner],
  ["transactions", "user_id", triggers],
  ["postings", "user_id", noOwnerColumn],
  ["idempotency_keys", "user_id", "ok"],
  ["access_tokens", "user_id", uniqueWithoutOwner],
  ["checkouts", "merchant_user_id", uniqueWithoutOwner],
  ["vouchers", "creator_user_id", uniqueWithoutOwner],
  ["webhook_endpoints", "user_id", uniqueWithoutOwner],
  ["events", "user_id", uniqueWithoutOwner],
  ["webhook_deliveries", "user_id", noOwnerColumn],
  ["webhook_attempts", "user_id", noOwnerColumn],
  ["event_deliveries", "user_id", noOwnerColumn],
  ["event_attempts", "user_id", noOwnerColumn],
  ["history_counts", "user_id", noOwnerColumn],
  ["history_count_deltas", "user_id", noOwnerColumn],
  ["history_month_counts", "user_id", noOwnerColumn],
  ["wallet_days", "user_id", noOwnerColumn],
  ["wallet_day_deltas", "user_id", noOwnerColumn],
];
const refusedToday = Object.fromEntries(
  plan.map(([table, , answer]) => [table, answer.replace("%s", table)]),
);

/** Runs `statement` in a savepoint: "ok", or Citus's message (and its detail) after rolling back to it. */
async function attempt(client: pg.Client, statement: string): Promise<string> {
  await client.query("savepoint attempt");
  try {
    await client.query(statement);
    await client.query("release savepoint attempt");
    return "ok";
  } catch (error) {
    await client.query("rollback to savepoint attempt");
    const { message, detail } = error as pg.DatabaseError;
    return detail ? `${message} / ${detail}` : message;
  }
}

/** Each table of the plan, in one transaction rolled back after, with every foreign key dropped first. */
async function eachTableWithoutForeignKeys(client: pg.Client): Promise<Record<string, string>> {
  await client.query("begin");
  try {
    const keys = await client.query<{ rel: string; conname: string }>(
      `select conrelid::regclass::text as rel, conname from pg_constraint
       where contype = 'f' and connamespace in ('public'::regnamespace, 'purse_test'::regnamespace)`,
    );
    for (const key of keys.rows)
      await client.query(`alter table ${key.rel} drop constraint "${key.conname}"`);
    const answers: Record<string, string> = {};
    for (const [table, column] of plan) {
      answers[table] = await attempt(
        client,
        column === null
          ? `select create_reference_table('public.${table}')`
          : `select create_distributed_table('public.${table}', '${column}')`,
      );
    }
    return answers;
  } finally {
    await client.query("rollback");
  }
}

/**
 * `users` made a reference table with the foreign keys in place (rolled back after): Citus turns
 * every table that references it into a Citus local table, and such a table cannot be distributed
 * any more, since undistributing it refuses identity columns.
 */
async function usersAlone(client: pg.Client) {
  await client.query("begin");
  try {
    await client.query("set local client_min_messages = warning");
    await client.query("select create_reference_table('public.users')");
    const local = await client.query<{ rel: string }>(
      `select logicalrelid::regclass::text as rel from pg_dist_partition
       where partmethod = 'n' and repmodel = 's' and logicalrelid::regclass::text not like 'purse_test.%'`,
    );
    return {
      convertedToCitusLocal: local.rows.map((row) => row.rel),
      distributingWallets: await attempt(
        client,
        "select create_distributed_table('public.wallets', 'user_id')",
      ),
    };
  } finally {
    await client.query("rollback");
  }
}
