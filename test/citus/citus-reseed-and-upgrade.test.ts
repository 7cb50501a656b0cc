import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restDoor } from "../doors/doors.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { type DistributedPurse, distributedPurse } from "../support/distributed-purse.ts";
import { purseCli } from "../support/purse-cli.ts";
import { startTestServer } from "../support/test-server.ts";

/**
 * docs/sharding.md, "What is left": on a Purse whose tables Citus distributed by owner and that
 * already holds data, `purse seed` of a second fixture, and `purse migrate` of the last migrations
 * followed by `purse citus distribute` again, as docs/sharding.md tells an operator to upgrade.
 */
const vendored = fileURLToPath(new URL("../../../shared/vendor/citus/citus-13.2.2.tar.gz", import.meta.url));
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

/** New users beside the sample world: dora (4) and erin (5), a wallet each and a voucher of dora's. */
const secondFixture = {
  currencies: [],
  rates: [],
  users: [
    { id: 4, name: "Dora", role: "partner", login: "dora", password: "dora-pass" },
    { id: 5, name: "Erin", role: "merchant", login: "erin", password: "erin-pass" },
  ],
  clients: [
    { user_id: 4, client_id: "dora", client_secret: "dora-secret", form_token: "dora-form" },
    { user_id: 5, client_id: "erin", client_secret: "erin-secret", form_token: "erin-form" },
  ],
  wallets: [
    { id: 40, user_id: 4, number: "U100000040", currency: "USD", amount: "100.00", amountLimit: "1000.00" },
    { id: 50, user_id: 5, number: "U100000050", currency: "USD", amount: "0", amountLimit: "1000.00" },
  ],
  vouchers: [
    {
      voucher_number: "V400000001",
      voucher_code: "dora-code-1",
      currency: "USD",
      amount: "7.00",
      type: 1,
      status: 0,
      expired_at: "2030-01-01 00:00:00",
      creator_user_id: 4,
      transaction_status: 3,
    },
  ],
};

/** The two last migrations, which the upgrade below applies to the distributed database. */
const lastMigrations = ["0024-drop-postings-wallet-index", "0025-operator-keys"];

describe.skipIf(!installed && !existsSync(vendored))(
  "a distributed Purse with data: seeded again, then upgraded",
  () => {
    let cluster: CitusCluster;
    let purse: DistributedPurse;
    let dir: string;
    const query = <Row>(text: string, values: unknown[] = []) =>
      cluster.coordinator.query(text, values, purse.database.name) as Promise<Row[]>;
    const cli = (args: string[], input = "") => purseCli(purse.database, args, {}, input);
    const ran = async (args: string[], input = "") => {
      const run = await cli(args, input);
      expect(run.stderr, `purse ${args.join(" ")}`).toBe("");
      expect(run.code).toBe(0);
      return run.stdout;
    };
    const balance = async (number: string) =>
      (
        await query<{ balance: string }>(
          "select balance_minor::text as balance from wallets where number = $1",
          [number],
        )
      )[0]?.balance;

    beforeAll(async () => {
      await ensureCitusInstalled();
      cluster = await startCitusCluster();
      purse = await distributedPurse(cluster, `purse_citus_upgrade_${process.pid}`);
      dir = await mkdtemp(join(tmpdir(), "purse-citus-reseed-"));
    }, 30 * 60_000);
    afterAll(async () => {
      await purse?.api.close();
      await cluster?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("seeds a second fixture into the distributed database that holds data; the new users' money moves to and from the old ones", async () => {
      const { api } = purse;
      const acme = await api.token("acme");
      // Data beyond the first seed: a transfer between acme and bolt (different workers).
      const moved = await restDoor(api).transfer(acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "3.00",
      });
      expect(moved.ok).toBe(true);

      const fixture = join(dir, "second.json");
      await writeFile(fixture, JSON.stringify(secondFixture));
      expect(await ran(["seed", fixture])).toContain("2 users, 2 clients, 2 wallets, 1 vouchers");
      // All or nothing: the same records again are refused, and nothing is written.
      const again = await cli(["seed", fixture]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("already exists");
      expect(await balance("U100000040")).toBe("10000");

      // The new users' wallets on the distributed schema: paid from acme's, paying bolt's, a voucher
      // of dora's activated by acme.
      const dora = await api.token("dora", "dora-secret");
      const rest = restDoor(api);
      expect(
        (await rest.transfer(acme, { walletFrom: "U100000010", walletTo: "U100000050", amount: "4.00" })).ok,
      ).toBe(true);
      expect(
        (await rest.transfer(dora, { walletFrom: "U100000040", walletTo: "U100000020", amount: "5.00" })).ok,
      ).toBe(true);
      expect(await balance("U100000050")).toBe("400");
      expect((await rest.activateVoucher(acme, "V400000001", "dora-code-1", "U100000010")).ok).toBe(true);
      // The fixture's ids went in as given; the seed moved the sequences past them, so a user the
      // CLI creates next takes the id after erin's, and erin's new wallet one of its own.
      expect(
        await ran(
          ["users", "create", "--login", "finn", "--name", "Finn", "--role", "merchant", "--password-stdin"],
          "finn-pass\n",
        ),
      ).toContain("Created merchant finn (user 6).");
      expect(await ran(["wallets", "create", "--user", "erin", "--currency", "EUR"])).toContain("for erin");

      const audit = await cli(["audit"]);
      expect(audit.stdout).toContain("The ledger is balanced.");
      expect(audit.code).toBe(0);
    }, 120_000);

    it("upgrades the distributed database past its last migrations: purse migrate, purse citus distribute again, then money moves and the audit holds", async () => {
      // An operator's keyed credit before the upgrade: migration 0025 backfills its key.
      expect(await ran(["wallets", "credit", "U100000020", "5.00", "--key", "before-upgrade"])).toContain(
        "Credited 5.00 to U100000020",
      );
      // The database as the release before those migrations left it, distributed: their changes
      // undone (0025's table gone, 0024's index back) and their rows out of the migrations' tables.
      // `purse serve` is stopped for the upgrade, as docs/deploy.md says.
      await purse.api.close();
      for (const schema of ["public", "purse_test"]) {
        await query(`drop table ${schema}.operator_keys`);
        await query(
          `create index postings_wallet_idx on ${schema}.postings (wallet_id) where wallet_id is not null`,
        );
        await query(`delete from ${schema}.mikro_orm_migrations where name = any($1)`, [lastMigrations]);
      }
      const lacking = await cli(["audit"]);
      expect(lacking.stderr).toContain("lacks 4 migration(s)");

      const migrated = await ran(["migrate"]);
      expect(migrated).toContain("Applied 4 migration(s)");
      for (const name of lastMigrations) expect(migrated).toContain(`test:${name}`);
      // 0024 dropped the index on every shard (DDL through the coordinator); 0025's table is the
      // coordinator's own until the step hands it over, and holds the key already used.
      for (const worker of cluster.workers) {
        const left = await worker.query(
          "select count(*)::int as count from pg_indexes where indexname like 'postings_wallet_idx%'",
          [],
          purse.database.name,
        );
        expect(left).toEqual([{ count: 0 }]);
      }
      expect(await query("select key from operator_keys")).toEqual([{ key: "before-upgrade" }]);
      expect(await ran(["citus", "distribute"])).toContain(
        "reference tables made: operator_keys, purse_test.operator_keys. Distributed by owner: none.",
      );
      expect(
        await query(
          "select logicalrelid::text as name, partmethod from pg_dist_partition where logicalrelid::text like '%operator_keys'",
        ),
      ).toEqual(
        expect.arrayContaining([
          { name: "operator_keys", partmethod: "n" },
          { name: "purse_test.operator_keys", partmethod: "n" },
        ]),
      );

      const api = await startTestServer({
        database: purse.database,
        env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" },
      });
      purse = { ...purse, api };
      // The key used before the upgrade is found in the backfilled table: the same credit again moves
      // nothing, and the key for another owner's wallet is refused.
      expect(await ran(["wallets", "credit", "U100000020", "5.00", "--key", "before-upgrade"])).toContain(
        "Key before-upgrade was already used for this",
      );
      expect(
        (await cli(["wallets", "credit", "U100000010", "5.00", "--key", "before-upgrade"])).stderr,
      ).toContain("Idempotency key already used for a different operation");
      expect(await ran(["wallets", "credit", "U100000010", "5.00", "--key", "after-upgrade"])).toContain(
        "Credited 5.00 to U100000010",
      );
      const moved = await restDoor(api).transfer(await api.token("acme"), {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "2.00",
      });
      expect(moved.ok).toBe(true);
      const audit = await cli(["audit"]);
      expect(audit.stdout).toContain("The ledger is balanced.");
      expect(audit.code).toBe(0);
    }, 180_000);
  },
);
