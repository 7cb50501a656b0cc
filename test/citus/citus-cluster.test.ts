import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Actor,
  closeExpiredVouchers,
  defaultEngineOptions,
  disabledCaptcha,
  type EngineDependencies,
  inProcessEventBus,
  MemoryRateLimiter,
  MemoryRouteLock,
  openDatabase,
  PurseError,
  secretBoxFromKey,
  transferFunds,
  type WalletStatement,
} from "@purse/engine";
import { sampleFixture } from "@purse/testing";
import { print } from "graphql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionHeaders } from "../../packages/dashboard/src/api/client.ts";
import {
  deliveryAttemptsQuery,
  webhookEndpointsQuery,
  webhookEventsQuery,
} from "../../packages/dashboard/src/api/developer-documents.ts";
import {
  checkoutsQuery,
  meQuery,
  statementQuery,
  transactionQuery,
  transactionsQuery,
  walletsQuery,
} from "../../packages/dashboard/src/api/documents.ts";
import type { TadaDocumentNode } from "../../packages/dashboard/src/api/graphql.ts";
import { refundMutation } from "../../packages/dashboard/src/api/refund-documents.ts";
import { balanceHistoryQuery, signInMutation } from "../../packages/dashboard/src/api/session-documents.ts";
import { graphqlDoor, restDoor, trpcDoor } from "../doors/doors.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { createTestCheckout, openTestAccount } from "../support/test-mode.ts";
import { startTestServer, type TestServer, testSecretKey } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";
import {
  type MerchantSite,
  type ReceivedWebhook,
  startMerchantSite,
  verifiedEvent,
} from "../support/webhook-receiver.ts";

/**
 * Contract, "Scale past one primary", as far as it goes today (docs/sharding.md): Purse on a Citus
 * 13.2.2 cluster of a coordinator and two workers, built from ../shared/vendor/citus when it is not
 * installed (scripts/citus/build.sh; CI builds it before the tests). On one database `purse
 * migrate`, a seed and the three doors on the coordinator's own tables; on another `purse migrate`
 * and the distribution step `purse citus distribute`, whose placements are checked, and where the
 * queries stand on it (the movement is not routed yet); and the trap that makes the step one step.
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
      site = await startMerchantSite();
    }, 30 * 60_000);
    afterAll(async () => {
      await cluster?.stop();
      await site?.close();
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

    describe("migrate, seed, serve on the coordinator's own tables (not distributed)", () => {
      const database = () => ({ name, url });
      let api: TestServer;
      afterAll(async () => {
        await api?.close();
      });

      it("runs purse migrate", async () => {
        const migrated = await purseCli(database(), ["migrate"]);
        expect(migrated.stderr).toBe("");
        expect(migrated.code).toBe(0);
      });

      it("seeds, then moves money through REST, GraphQL and tRPC, pays a checkout, sells and activates a voucher, lists history; purse audit holds", async () => {
        api = await seedAndServe(database());
        localTransfers = await runWorkload(api, database());
        localStatements = await statementsAfter(database(), localTransfers);
      }, 120_000);

      it("distributes that database with its data: the same balances, statements and history after, a balanced audit, and money moves again between owners on different workers", async () => {
        const today = new Date().toISOString().slice(0, 10);
        const historyOf = async (server: TestServer) =>
          (
            await server.call(
              "GET",
              `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
              { token: await server.token("acme") },
            )
          ).body;
        const balances = () =>
          cluster.coordinator.query(
            "select number, balance_minor::text from wallets order by number",
            [],
            name,
          );
        const before = { history: await historyOf(api), balances: await balances() };
        expect(before.history.data.items.length).toBeGreaterThan(0);
        const [counted] = await cluster.coordinator.query<{ transactions: string; postings: string }>(
          "select (select count(*) from transactions)::text as transactions, (select count(*) from postings)::text as postings",
          [],
          name,
        );
        // As an operator would: the service stopped, the step run once, the service started again.
        await api.close();
        const distributed = await purseCli(database(), ["citus", "distribute"]);
        expect(distributed.stderr).toBe("");
        expect(distributed.code).toBe(0);
        expect(distributed.stdout).toContain(
          `Distributed by owner: ${ownedTables.map(([table]) => table).join(", ")}, `,
        );
        // A line per table as Citus takes it, with the rows it copied (a large ledger takes minutes).
        expect(distributed.stdout).toMatch(
          new RegExp(
            `^  transactions: distributed by owner, ${counted?.transactions} rows copied in \\d+\\.\\d s$`,
            "m",
          ),
        );
        expect(distributed.stdout).toMatch(
          new RegExp(
            `^  postings: distributed by owner, ${counted?.postings} rows copied in \\d+\\.\\d s$`,
            "m",
          ),
        );
        expect(distributed.stdout).toMatch(
          /^ {2}currencies: reference table, \d+ rows copied in \d+\.\d s$/m,
        );
        // Citus copied every row into its shards: the same money, the same figures.
        expect(await balances()).toEqual(before.balances);
        const audit = await purseCli(database(), ["audit"]);
        expect(audit.stdout).toContain("The ledger is balanced.");
        expect(audit.code).toBe(0);
        expect(await statementsAfter(database(), localTransfers)).toEqual(localStatements);
        api = await startTestServer({ database: database(), env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
        expect(await historyOf(api)).toEqual(before.history);

        // acme's and bolt's wallets now on different workers: a transfer between them commits on both.
        const placed = await cluster.coordinator.query<{ node_port: string }>(
          `select s.nodeport::text as node_port from (values (1), (2)) as w(user_id)
           join citus_shards s on s.shardid = get_shard_id_for_distribution_column('wallets', w.user_id)`,
          [],
          name,
        );
        expect(new Set(placed.map((row) => row.node_port)).size).toBe(2);
        const moved = await restDoor(api).transfer(await api.token("acme"), {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "3.00",
        });
        expect(moved.ok ? "moved" : moved.message).toBe("moved");
        const after = await purseCli(database(), ["audit"]);
        expect(after.stdout).toContain("The ledger is balanced.");
        // What stopped it, if anything did after its verdict (stderr says; a timeout kills it silently).
        expect({ code: after.code, stderr: after.stderr }).toEqual({ code: 0, stderr: "" });
      }, 180_000);

      it.runIf(measuring)(
        "measures a transfer on the coordinator's own tables (PURSE_CITUS_COST)",
        async () => {
          const acme = await api.token("acme");
          const times = await transferTimes(api, acme, ["U100000010", "U100000020"], measuring);
          console.log(costLine("local tables, acme to bolt", times));
        },
        600_000,
      );
    });

    describe("distributed by owner (purse citus distribute)", () => {
      const distributedName = `${name}_dist`;
      let database: { name: string; url: string };
      let distributedApi: TestServer | undefined;
      afterAll(async () => {
        await distributedApi?.close();
      });
      beforeAll(async () => {
        database = { name: distributedName, url: await cluster.createDatabase(distributedName) };
      }, 120_000);

      it("makes the shared tables reference tables and distributes every owned table by its owner, colocated with wallets, in one step; run again it changes nothing", async () => {
        const migrated = await purseCli(database, ["migrate"]);
        expect(migrated.code).toBe(0);
        const distributed = await purseCli(database, ["citus", "distribute"]);
        expect(distributed.stderr).toBe("");
        expect(distributed.code).toBe(0);
        expect(distributed.stdout).toContain(
          "reference tables made: settings, rates, currencies, users, clients, wallet_numbers, voucher_numbers, operator_keys, purse_test.clients, purse_test.wallet_numbers, purse_test.voucher_numbers, purse_test.operator_keys.",
        );
        expect(distributed.stdout).toContain(
          `Distributed by owner: ${ownedTables.map(([table]) => table).join(", ")}, `,
        );
        const again = await purseCli(database, ["citus", "distribute"]);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain(
          "reference tables made: none. Distributed by owner: none. Already distributed: ",
        );

        const tables = await cluster.coordinator.query<{
          name: string;
          kind: string;
          column: string | null;
          colocated: boolean;
          nodes: string;
        }>(
          `select p.logicalrelid::regclass::text as name, p.partmethod::text as kind,
             case when p.partmethod = 'h' then column_to_column_name(p.logicalrelid, p.partkey) end as column,
             p.colocationid = (select colocationid from pg_dist_partition where logicalrelid = 'public.wallets'::regclass) as colocated,
             (select count(distinct s.nodeport) from citus_shards s where s.table_name = p.logicalrelid)::text as nodes
           from pg_dist_partition p where p.logicalrelid::regclass::text not like 'purse_test.%' order by 1`,
          [],
          distributedName,
        );
        // A reference table has a copy on every node (the coordinator and both workers); an owned
        // table is hash-distributed by its owner with shards on both workers, colocated with wallets.
        expect(tables).toEqual(
          [
            ...referenceTables.map((table) => ({
              name: table,
              kind: "n",
              column: null,
              colocated: false,
              nodes: "3",
            })),
            ...ownedTables.map(([table, column]) => ({
              name: table,
              kind: "h",
              column,
              colocated: true,
              nodes: "2",
            })),
          ].sort((a, b) => a.name.localeCompare(b.name)),
        );
        // Test mode's schema alike: its owned tables (and its test clocks) colocated with the live
        // wallets, its own clients a reference table.
        const testMode = await cluster.coordinator.query<{ name: string; kind: string; colocated: boolean }>(
          `select p.logicalrelid::regclass::text as name, p.partmethod::text as kind,
             p.colocationid = (select colocationid from pg_dist_partition where logicalrelid = 'public.wallets'::regclass) as colocated
           from pg_dist_partition p where p.logicalrelid::regclass::text like 'purse_test.%' order by 1`,
          [],
          distributedName,
        );
        expect(testMode).toEqual(
          [
            ...["clients", "operator_keys", "voucher_numbers", "wallet_numbers"].map((table) => ({
              name: `purse_test.${table}`,
              kind: "n",
              colocated: false,
            })),
            ...[...ownedTables.map(([table]) => table), "test_clocks"].map((table) => ({
              name: `purse_test.${table}`,
              kind: "h",
              colocated: true,
            })),
          ].sort((a, b) => a.name.localeCompare(b.name)),
        );
        // No key between two distributed tables is left; keys to the reference tables are.
        const keys = await cluster.coordinator.query<{ key: string }>(
          `select conrelid::regclass::text || ' -> ' || confrelid::regclass::text as key from pg_constraint
           where contype = 'f' and connamespace = 'public'::regnamespace
             and conrelid in (select logicalrelid from pg_dist_partition)
             and confrelid not in (select logicalrelid from pg_dist_partition where partmethod = 'n')`,
          [],
          distributedName,
        );
        expect(keys).toEqual([]);
        const toUsers = await cluster.coordinator.query<{ n: string }>(
          `select count(*)::text as n from pg_constraint
           where contype = 'f' and conrelid = 'public.wallets'::regclass and confrelid = 'public.users'::regclass`,
          [],
          distributedName,
        );
        expect(toUsers).toEqual([{ n: "1" }]);
      }, 180_000);

      it("moves money: seeds, then through REST, GraphQL and tRPC transfers between owners on different workers, pays a checkout, sells and activates a voucher, lists history; purse audit holds", async () => {
        // The sample world's acme (user 1) and bolt (user 2) own the wallets the workload moves
        // money between: placed on different workers, so each transfer commits on both.
        const placed = await cluster.coordinator.query<{ user_id: string; node_port: string }>(
          `select w.user_id::text, s.nodeport::text as node_port from (values (1), (2)) as w(user_id)
           join citus_shards s on s.shardid = get_shard_id_for_distribution_column('wallets', w.user_id)
           order by 1`,
          [],
          distributedName,
        );
        expect(placed).toHaveLength(2);
        expect(placed[0]?.node_port).not.toBe(placed[1]?.node_port);
        distributedApi = await seedAndServe(database);
        const moved = await runWorkload(distributedApi, database);
        // `purse statement` of acme's and bolt's wallets says what it says on the local tables.
        expect(await statementsAfter(database, moved)).toEqual(localStatements);

        // The counters' deltas are folded, owner by owner, by serve's background fold (every
        // second), and the audit still finds the counts equal to the transactions.
        const unfolded = () =>
          cluster.coordinator.query<{ n: string }>(
            `select ((select count(*) from history_count_deltas) + (select count(*) from wallet_day_deltas))::text as n`,
            [],
            distributedName,
          );
        await expect.poll(unfolded, { timeout: 15_000, interval: 250 }).toEqual([{ n: "0" }]);
        const folded = await cluster.coordinator.query<{ n: string }>(
          "select count(*)::text as n from history_counts",
          [],
          distributedName,
        );
        expect(Number(folded[0]?.n)).toBeGreaterThan(0);
        const audit = await purseCli(database, ["audit"]);
        expect(audit.stdout).toContain("The ledger is balanced.");

        // The movements' webhook events are fanned out (to no endpoint: none is registered) by
        // serve's event outbox, owner by owner.
        const raised = () =>
          cluster.coordinator.query<{ events: string; waiting: string }>(
            `select count(*)::text as events, count(*) filter (where not fanned_out)::text as waiting from events`,
            [],
            distributedName,
          );
        await expect
          .poll(async () => (await raised())[0]?.waiting, { timeout: 15_000, interval: 250 })
          .toBe("0");
        expect(Number((await raised())[0]?.events)).toBeGreaterThan(0);

        // Every delivery the workload saw arrive is recorded delivered, its attempt beside it on
        // its owner's shard (a moment after the receiver answered).
        const outboxes = () =>
          cluster.coordinator.query<{ undelivered: string; attempts: string }>(
            `select ((select count(*) from webhook_deliveries where status <> 'delivered')
                + (select count(*) from event_deliveries where status <> 'delivered'))::text as undelivered,
              (select count(*) from webhook_attempts)::text || ' + ' || (select count(*) from event_attempts)::text as attempts`,
            [],
            distributedName,
          );
        await expect
          .poll(outboxes, { timeout: 15_000, interval: 250 })
          .toEqual([{ undelivered: "0", attempts: "1 + 9" }]);

        // Retention: the attempt record of the notification (delivered, then made two days old),
        // then (the events made older than the 90 days kept) the events with their deliveries and
        // attempts, which on Citus no foreign key cascades to.
        const age = (statement: string) => cluster.coordinator.query(statement, [], distributedName);
        await age("update webhook_deliveries set delivered_at = now() - interval '2 days'");
        const pruned = await purseCli(database, ["prune"], { PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS: "1" });
        expect(pruned.stderr).toBe("");
        expect(pruned.stdout).toContain(
          "Deleted 1 attempt record(s) of webhooks delivered over 1 day(s) ago.",
        );
        await age("update events set created_at = now() - interval '91 days'");
        const events = Number((await raised())[0]?.events);
        const old = await purseCli(database, ["prune"]);
        expect(old.stderr).toBe("");
        expect(old.stdout).toContain(`Deleted ${events} endpoint event(s) raised over 90 day(s) ago.`);
        expect(
          await cluster.coordinator.query(
            `select (select count(*) from events)::text as events, (select count(*) from event_deliveries)::text as deliveries,
              (select count(*) from event_attempts)::text as attempts`,
            [],
            distributedName,
          ),
        ).toEqual([{ events: "0", deliveries: "0", attempts: "0" }]);
      }, 180_000);

      it("keeps a wallet number unique across owners, and finds a new wallet's owner by its number", async () => {
        const api = distributedApi as TestServer;
        // acme's wallet number, asked for bolt (another owner, on the other worker): the shard of
        // bolt's wallets has no such number, the reference table of numbers has.
        const taken = await purseCli(database, [
          "wallets",
          "create",
          "--user",
          "bolt",
          "--currency",
          "USD",
          "--number",
          "U100000010",
        ]);
        expect(taken.stderr).toContain('--number "U100000010": a wallet with this number exists');
        expect(taken.code).not.toBe(0);
        const opened = await purseCli(database, [
          "wallets",
          "create",
          "--user",
          "bolt",
          "--currency",
          "USD",
          "--number",
          "U100000099",
        ]);
        expect(opened.stdout).toContain("Opened wallet U100000099 (USD) for bolt.");
        const moved = await restDoor(api).transfer(await api.token("acme"), {
          walletFrom: "U100000010",
          walletTo: "U100000099",
          amount: "1.00",
        });
        expect(moved.ok ? "moved" : moved.message).toBe("moved");
        expect(
          await cluster.coordinator.query(
            "select w.user_id::text, w.balance_minor::text from wallet_numbers n join wallets w on w.id = n.wallet_id and w.user_id = n.user_id where n.number = 'U100000099'",
            [],
            distributedName,
          ),
        ).toEqual([{ user_id: "2", balance_minor: "100" }]);
      }, 60_000);

      it("runs the operator's credit, payout and reversal, a refund, the expired-checkout sweep, token issuance and endpoint management", async () => {
        const api = distributedApi as TestServer;
        const acme = await api.token("acme");
        const cli = (args: string[]) => purseCli(database, args);

        // The operator's verbs (purse CLI), each a movement keyed by its --key; the key again moves nothing.
        expect(
          (await cli(["wallets", "credit", "U100000010", "5.00", "--key", "citus-credit"])).stdout,
        ).toContain("Credited 5.00 to U100000010");
        expect(
          (await cli(["wallets", "credit", "U100000010", "5.00", "--key", "citus-credit"])).stdout,
        ).toContain("Key citus-credit was already used for this");
        expect(
          (await cli(["wallets", "payout", "U100000020", "1.00", "--key", "citus-payout"])).stdout,
        ).toContain("Paid out 1.00 from U100000020");
        const moved = await restDoor(api).transfer(acme, {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "2.00",
        });
        if (!moved.ok) throw new Error(moved.message);
        const reversed = await cli(["transactions", "reverse", String(moved.id), "--key", "citus-reverse"]);
        expect(reversed.stderr).toBe("");
        expect(reversed.stdout).toContain(`Reversed transaction ${moved.id}`);
        expect(
          (await cli(["transactions", "reverse", String(moved.id), "--key", "citus-reverse-2"])).stderr,
        ).toContain(`Transaction ${moved.id} is already reversed by`);

        // A refund of part of a paid checkout, by its merchant on REST, then the rest by an operator.
        const at = `/${distributedName}-verbs`;
        const checkout = await createCheckout(api, { url: `${site.url}${at}` }, "3.00");
        const paid = await api.call("POST", "/api/processing/pay", {
          body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
        });
        expect(paid.status).toBe(200);
        const [notified] = await site.waitFor(`${at}/webhook`, 1, 20_000);
        const transactionId = JSON.parse(notified?.body ?? "{}").transaction_id;
        const refunded = await api.call("POST", "/api/processing/refund", {
          token: acme,
          body: { transaction_id: transactionId, amount: "1.00" },
        });
        expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
        expect(refunded.body.data).toMatchObject({
          refund_of: transactionId,
          amount: "1.00",
          refundable: "2.00",
        });
        expect(
          (await cli(["transactions", "refund", String(transactionId), "--key", "citus-refund"])).stdout,
        ).toContain(`Refunded 2.00 of transaction ${transactionId}; 0.00 may still be refunded`);
        // The checkout's transaction shown to its merchant (with its refunds) and to its payer,
        // whose wallet is on the other worker.
        const shown = await api.call("GET", `/api/transaction/show?id=${transactionId}`, { token: acme });
        expect(shown.status, JSON.stringify(shown.body)).toBe(200);
        expect(shown.body.data).toMatchObject({ id: transactionId, amount: "3.00" });
        const payerSees = await api.call("GET", `/api/transaction/show?id=${transactionId}`, {
          token: await api.token("bolt"),
        });
        expect(payerSees.status, JSON.stringify(payerSees.body)).toBe(200);

        // A checkout whose link expired unpaid is closed by serve's sweep (every 5 s): FAIL, notified.
        const expiring = await createCheckout(api, { url: `${site.url}${at}-expired` }, "4.00");
        await cluster.coordinator.query(
          "update checkouts set expired_at = now() - interval '1 minute' where payment_id = $1",
          [expiring.paymentId],
          distributedName,
        );
        const [failed] = await site.waitFor(`${at}-expired/webhook`, 1, 20_000);
        expect(JSON.parse(failed?.body ?? "{}")).toMatchObject({
          payment_id: expiring.paymentId,
          status: "FAIL",
        });

        // An operator token, issued by the CLI, reads any wallet's statement over GraphQL.
        const issued = await cli(["--json", "operators", "token", "--client", "acme", "--operator", "citus"]);
        expect(issued.stderr).toBe("");
        expect(JSON.parse(issued.stdout).access_token).toMatch(/^\S+$/);

        // An endpoint changed, its secret rotated, then deleted with its deliveries and attempts.
        const trpc = trpcClient(api.url, acme);
        const endpoint = await trpc.createWebhookEndpoint.mutate({
          url: `${site.url}${at}/endpoint`,
          events: ["*"],
        });
        expect(
          await trpc.updateWebhookEndpoint.mutate({ id: endpoint.id, enabled: false, description: "paused" }),
        ).toMatchObject({ enabled: false, description: "paused" });
        const rotated = await trpc.rotateWebhookEndpointSecret.mutate({ id: endpoint.id, overlapHours: 1 });
        expect(rotated.secret).not.toBe(endpoint.secret);
        const listed = async () => (await trpc.webhookEndpoints.query()).map((found) => found.id);
        expect(await listed()).toContain(endpoint.id);
        const [acmeEndpoint] = await listed();
        // The oldest endpoint's delivery log, then the endpoint deleted with it.
        expect(
          (await trpc.webhookDeliveryAttempts.query({ endpoint: acmeEndpoint as string })).length,
        ).toBeGreaterThan(0);
        expect((await trpc.deleteWebhookEndpoint.mutate({ id: acmeEndpoint as string })).deleted).toBe(true);
        expect(await listed()).not.toContain(acmeEndpoint);
        expect(
          await cluster.coordinator.query(
            `select count(*)::text as n from event_deliveries d
             where not exists (select 1 from webhook_endpoints e where e.id = d.endpoint_id and e.user_id = d.user_id)`,
            [],
            distributedName,
          ),
        ).toEqual([{ n: "0" }]);

        // acme's export of the day lists every transaction one of its wallets took part in, whichever
        // shard it lies on (a received transfer is on its sender's).
        const today = new Date().toISOString().slice(0, 10);
        const exported = await api.call(
          "GET",
          `/api/transactions/export?startDate=${today}&endDate=${today}`,
          {
            token: acme,
          },
        );
        expect(exported.status).toBe(200);
        const [party] = await cluster.coordinator.query<{ n: string }>(
          `select count(*)::text as n from transactions t
           where (t.wallet_from_id in (select id from wallets where user_id = 1)
             or t.wallet_to_id in (select id from wallets where user_id = 1))
             and t.created_at >= $1::date and t.created_at < $1::date + 1`,
          [today],
          distributedName,
        );
        const lines = String(exported.body).trim().split("\n");
        expect(lines.length - 1).toBe(Number(party?.n));
        expect(Number(party?.n)).toBeGreaterThan(10);

        // Every movement above (credit, payout, reversal, refunds, the expired checkout's FAIL) sealed and balanced.
        const audit = await cli(["audit"]);
        expect(audit.stdout).toContain("The ledger is balanced.");
        expect(audit.code).toBe(0);
      }, 120_000);

      it("runs an operator's GraphQL verbs, a webhook test event and replays, and the voucher expiry sweep", async () => {
        const api = distributedApi as TestServer;
        const acme = await api.token("acme");
        const bolt = await api.token("bolt");
        const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
          const answer = await api.call("POST", "/graphql", { token, body: { query, variables } });
          expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
          return answer.body.data;
        };

        // An operator token (purse operators token) moving money on GraphQL: a credit to bolt's
        // wallet, its key again replaying it, a payout from acme's, a reversal of a transfer
        // between the two workers, and bolt's statement showing the operator's lines.
        const issued = await purseCli(database, [
          "--json",
          "operators",
          "token",
          "--client",
          "acme",
          "--operator",
          "citus-graphql",
        ]);
        const operator = JSON.parse(issued.stdout).access_token as string;
        const moved = `... on OperatorMovement { transactionId replayed operator }`;
        const credit = `mutation($key: String!) { operatorCredit(wallet: "U100000020", amount: "3.00", key: $key, note: "goodwill") {
          __typename ... on MutationOperatorCreditSuccess { data { ${moved} } } ... on PurseError { message } } }`;
        const credited = (await graphql(operator, credit, { key: "citus-graphql-credit" })).operatorCredit;
        expect(credited).toMatchObject({ data: { replayed: false, operator: "citus-graphql" } });
        expect(
          (await graphql(operator, credit, { key: "citus-graphql-credit" })).operatorCredit.data,
        ).toEqual({
          ...credited.data,
          replayed: true,
        });
        // One key sent at once for two owners' wallets (on two workers): an operator's key is unique
        // across owners (operator_keys, a reference table), so one moves money and the other is
        // refused, the key being another request's.
        const raced = await Promise.all(
          ["U100000010", "U100000020"].map((wallet) =>
            graphql(
              operator,
              `mutation { operatorCredit(wallet: "${wallet}", amount: "1.00", key: "citus-graphql-race") {
                __typename ... on PurseError { message } } }`,
            ),
          ),
        );
        expect(raced.map((answer) => answer.operatorCredit.__typename).sort()).toEqual([
          "MutationOperatorCreditSuccess",
          "PurseError",
        ]);
        expect(
          await cluster.coordinator.query(
            "select count(*)::text as n from transactions where idempotency_key = 'citus-graphql-race'",
            [],
            distributedName,
          ),
        ).toEqual([{ n: "1" }]);
        const payout = await graphql(
          operator,
          `mutation { operatorPayout(wallet: "U100000010", amount: "1.00", key: "citus-graphql-payout") {
            __typename ... on PurseError { message } } }`,
        );
        expect(payout.operatorPayout.__typename).toBe("MutationOperatorPayoutSuccess");
        const transfer = await restDoor(api).transfer(acme, {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "1.50",
        });
        if (!transfer.ok) throw new Error(transfer.message);
        const reverse = `mutation($key: String!) { reverseTransaction(transactionId: ${transfer.id}, key: $key) {
          __typename ... on MutationReverseTransactionSuccess { data { transactionId } } ... on PurseError { message } } }`;
        const reversed = (await graphql(operator, reverse, { key: "citus-graphql-reverse" }))
          .reverseTransaction;
        expect(reversed.__typename).toBe("MutationReverseTransactionSuccess");
        expect(
          (await graphql(operator, reverse, { key: "citus-graphql-reverse-2" })).reverseTransaction,
        ).toEqual({
          __typename: "PurseError",
          message: expect.stringContaining(`Transaction ${transfer.id} is already reversed by`),
        });
        const today = new Date().toISOString().slice(0, 10);
        const { statement } = await graphql(
          operator,
          `{ statement(wallet: "U100000020", from: "${today}") { ... on QueryStatementSuccess { data {
            lines { transactionId operator amount reversesTransactionId } } } } }`,
        );
        expect(statement.data.lines).toEqual(
          expect.arrayContaining([
            {
              transactionId: credited.data.transactionId,
              operator: "citus-graphql",
              amount: "3.00",
              reversesTransactionId: null,
            },
            {
              transactionId: reversed.data.transactionId,
              operator: "citus-graphql",
              amount: "-1.50",
              reversesTransactionId: transfer.id,
            },
          ]),
        );

        // A test event to a new endpoint of acme's, then acme's live events replayed to it: by id,
        // then by time range; each arrives signed with the endpoint's secret. The events above are
        // fanned out first, so that the new endpoint receives nothing but these.
        await expect
          .poll(
            async () =>
              (
                await cluster.coordinator.query<{ n: string }>(
                  "select count(*)::text as n from events where not fanned_out",
                  [],
                  distributedName,
                )
              )[0]?.n,
            { timeout: 15_000, interval: 250 },
          )
          .toBe("0");
        const at = `/${distributedName}-replay`;
        const created = await graphql(
          acme,
          `mutation($url: String!) { createWebhookEndpoint(url: $url, events: ["*"]) {
            ... on MutationCreateWebhookEndpointSuccess { data { id secret } } } }`,
          { url: `${site.url}${at}` },
        );
        const endpoint = created.createWebhookEndpoint.data as { id: string; secret: string };
        const sent = await graphql(
          acme,
          `mutation($endpoint: String!) { sendTestWebhookEvent(endpoint: $endpoint, type: "transfer.sent") {
            ... on MutationSendTestWebhookEventSuccess { data { eventId } } ... on PurseError { message } } }`,
          { endpoint: endpoint.id },
        );
        const [sample] = await site.waitFor(at, 1, 20_000);
        expect(verifiedEvent(sample as ReceivedWebhook, endpoint.secret)).toMatchObject({
          id: sent.sendTestWebhookEvent.data.eventId,
          type: "transfer.sent",
          livemode: false,
        });
        const { webhookEvents } = await graphql(
          acme,
          '{ webhookEvents(type: "transfer.sent", limit: 100) { id } }',
        );
        const replay = `mutation($endpoint: String!, $events: [String!], $from: String, $to: String) {
          replayWebhookEvents(endpoint: $endpoint, events: $events, from: $from, to: $to) {
            ... on MutationReplayWebhookEventsSuccess { data { queued } } ... on PurseError { message } } }`;
        const oneId = (webhookEvents as { id: string }[]).at(-1)?.id;
        const byId = await graphql(acme, replay, { endpoint: endpoint.id, events: [oneId] });
        expect(byId.replayWebhookEvents.data.queued).toEqual([oneId]);
        const byRange = await graphql(acme, replay, {
          endpoint: endpoint.id,
          from: `${today}T00:00:00Z`,
          to: new Date(Date.now() + 60_000).toISOString(),
        });
        const queued = byRange.replayWebhookEvents.data.queued as string[];
        expect(queued.length).toBeGreaterThan(5);
        const arrived = await site.waitFor(at, 2 + queued.length, 30_000);
        expect(
          arrived
            .slice(1)
            .map((received) => verifiedEvent(received, endpoint.secret).id)
            .sort(),
        ).toEqual([oneId, ...queued].sort());

        // A voucher past its expiry, closed by the sweep serve runs every minute (here at once, over
        // every shard): stored closed; its lookup, its buyer's list and its activation say so.
        const voucher = await api.call("POST", "/api/vouchers/buy", {
          token: bolt,
          body: { wallet_from: "U100000020", amount: "2.00" },
        });
        expect(voucher.status).toBe(200);
        const { voucherNumber, secret } = voucher.body.data;
        const stored = () =>
          cluster.coordinator.query<{ status: number }>(
            "select status from vouchers where number = $1",
            [voucherNumber],
            distributedName,
          );
        await cluster.coordinator.query(
          "update vouchers set expired_at = now() - interval '1 minute' where number = $1",
          [voucherNumber],
          distributedName,
        );
        expect(await closeExpiredVouchers(api.server.runtime.db, new Date())).toBe(1);
        expect(await stored()).toEqual([{ status: 2 }]);
        const looked = await graphql(
          bolt,
          `query($number: String!, $code: String!) { voucher(number: $number, code: $code) {
            ... on QueryVoucherSuccess { data { status } } ... on PurseError { message } } }`,
          { number: voucherNumber, code: secret },
        );
        expect(looked.voucher).toEqual({ message: "Voucher closed" });
        const { vouchers } = await graphql(bolt, "{ vouchers { items { voucherNumber status } } }");
        expect(vouchers.items).toContainEqual({ voucherNumber, status: 2 });
        expect(await restDoor(api).activateVoucher(acme, voucherNumber, secret, "U100000010")).toEqual({
          ok: false,
          message: "Voucher closed",
        });

        const audit = await purseCli(database, ["audit"]);
        expect(audit.stdout).toContain("The ledger is balanced.");
      }, 120_000);

      it("serves the dashboard's own GraphQL (signed in by its session): wallets, history with totals, checkouts, a refund, a transaction's detail, statement, balance chart, export, developer pages", async () => {
        const api = distributedApi as TestServer;
        // The documents the dashboard sends (packages/dashboard/src/api), as it sends them: with
        // its session cookie and the header it adds to every request.
        const signIn = await api.call("POST", "/graphql", {
          body: { query: print(signInMutation), variables: { login: "acme", password: "acme-pass" } },
        });
        expect(signIn.body.data.signIn.__typename).toBe("MutationSignInSuccess");
        const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
        const session = { cookie, ...sessionHeaders };
        const dashboard = async <Result, Variables>(
          document: TadaDocumentNode<Result, Variables>,
          variables: Variables,
        ): Promise<Result> => {
          const answer = await api.call("POST", "/graphql", {
            headers: session,
            body: { query: print(document), variables },
          });
          expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
          return answer.body.data as Result;
        };
        expect((await dashboard(meQuery, {})).me).toMatchObject({ id: 1, name: "Acme Shop" });
        const { wallets } = await dashboard(walletsQuery, {});
        const balance = async () =>
          (
            await cluster.coordinator.query<{ amount: string }>(
              "select (balance_minor / 100.0)::numeric(20, 2)::text as amount from wallets where number = 'U100000010'",
              [],
              distributedName,
            )
          )[0]?.amount;
        expect(wallets).toContainEqual(
          expect.objectContaining({ number: "U100000010", amount: await balance() }),
        );

        // A checkout paid by bolt (its wallet on the other worker), refunded in part from the
        // dashboard, then listed with what was refunded and shown with its refund and deliveries.
        const checkout = await createCheckout(
          api,
          { url: `${site.url}/${distributedName}-dashboard` },
          "3.00",
        );
        const paid = await api.call("POST", "/api/processing/pay", {
          body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
        });
        expect(paid.status).toBe(200);
        const refund = (input: { amount: string; idempotencyKey: string }) =>
          dashboard(refundMutation, {
            input: { externalId: checkout.paymentId, reason: "damaged", ...input },
          });
        expect(
          (await refund({ amount: "1.00", idempotencyKey: "citus-dashboard-refund" })).refundCheckout,
        ).toEqual({
          __typename: "MutationRefundCheckoutSuccess",
          data: { id: expect.any(Number), amount: "1.00", refundable: "2.00" },
        });
        const { checkouts } = await dashboard(checkoutsQuery, { before: null, limit: 50 });
        expect(checkouts[0]).toMatchObject({
          paymentId: checkout.paymentId,
          status: "SUCCESS",
          walletFrom: "U100000020",
          walletTo: "U100000010",
          refunded: "1.00",
        });
        const { transaction } = await dashboard(transactionQuery, {
          id: null,
          externalId: checkout.paymentId,
        });
        expect(transaction).toMatchObject({
          externalId: checkout.paymentId,
          amount: "3.00",
          refunded: "1.00",
          refunds: [{ amount: "1.00" }],
          processingPay: { walletFrom: "U100000020", walletTo: "U100000010" },
        });
        expect(transaction?.deliveries?.map((delivery) => delivery.kind)).toContain("STATUS_URL");

        // The day's history with its totals (a count per currency), and the export with the same
        // filter: as many rows as the totals count.
        const today = new Date().toISOString().slice(0, 10);
        const history = await dashboard(transactionsQuery, {
          first: 100,
          after: null,
          filter: { from: today, until: today },
        });
        const { totals } = history.transactions;
        expect(totals.map((total) => total.exact)).not.toContain(false);
        const exported = await api.call("GET", `/api/transactions/export?from=${today}&until=${today}`, {
          headers: session,
        });
        expect(exported.status).toBe(200);
        expect(String(exported.body).trim().split("\n").length - 1).toBe(
          totals.reduce((sum, total) => sum + total.count, 0),
        );
        expect(history.transactions.edges.map((edge) => edge.node.externalId)).toContain(checkout.paymentId);

        // The statement and the balance chart close on the wallet's balance (the refunded payment in it).
        const closing = await balance();
        const { statement } = await dashboard(statementQuery, {
          wallet: "U100000010",
          from: today,
          to: null,
        });
        expect(statement).toMatchObject({
          __typename: "QueryStatementSuccess",
          data: { closingBalance: closing },
        });
        const { balanceHistory } = await dashboard(balanceHistoryQuery, {
          wallet: "U100000010",
          from: today,
        });
        expect(balanceHistory.at(-1)?.balance).toBe(closing);

        // The developer pages: acme's endpoints, events and an endpoint's delivery attempts.
        const { webhookEndpoints } = await dashboard(webhookEndpointsQuery, {});
        expect(webhookEndpoints.length).toBeGreaterThan(0);
        expect(
          (await dashboard(webhookEventsQuery, { type: null, before: null, limit: 20 })).webhookEvents.length,
        ).toBeGreaterThan(0);
        const attempts = await Promise.all(
          webhookEndpoints.map(
            async (endpoint) =>
              (await dashboard(deliveryAttemptsQuery, { endpoint: endpoint.id, limit: 20 }))
                .webhookDeliveryAttempts.length,
          ),
        );
        expect(Math.max(...attempts)).toBeGreaterThan(0);
      }, 60_000);

      it("runs test mode: test credentials and funds, a test transfer, a test checkout expired by its merchant's test clock, its notification's retry brought forward", async () => {
        const api = distributedApi as TestServer;
        const acme = await openTestAccount(api, "acme", { USD: "50.00" });
        const bolt = await openTestAccount(api, "bolt", { USD: "50.00" });
        const moved = await restDoor(api).transfer(bolt.token, {
          walletFrom: bolt.wallets["USD"] ?? "",
          walletTo: acme.wallets["USD"] ?? "",
          amount: "2.00",
        });
        expect(moved.ok ? "moved" : moved.message).toBe("moved");

        // A test checkout left unpaid; its status_url answers the FAIL notification with 503 once.
        const paymentId = `citus-test-${process.pid}`;
        const created = await createTestCheckout(
          api,
          acme,
          bolt.wallets["USD"] ?? "",
          "5.00",
          paymentId,
          `${site.url}/${distributedName}-test`,
        );
        expect(created.status).toBe(200);
        const statusPath = `/${distributedName}-test/status/${paymentId}`;
        site.failPath(statusPath, 1);
        const advance = (by: string) =>
          purseCli(database, ["test", "clock", "advance", by, "--user", "acme"]);
        // Two days on acme's test clock: the link expired, closed FAIL and notified (answered 503).
        const moved2d = await advance("2d");
        expect(moved2d.stderr).toBe("");
        expect(moved2d.stdout).toContain("acme's test clock now reads");
        const [failed] = await site.waitFor(statusPath, 1, 20_000);
        expect(JSON.parse(failed?.body ?? "{}")).toMatchObject({ payment_id: paymentId, status: "FAIL" });
        // Its retry is due in 30 s of real time; a day more on the clock brings it forward, delivered now.
        await expect
          .poll(
            async () =>
              (
                await cluster.coordinator.query<{ attempts: string }>(
                  "select attempts::text from purse_test.webhook_deliveries where status = 'pending' and next_attempt_at > now()",
                  [],
                  distributedName,
                )
              ).length,
            { timeout: 10_000, interval: 200 },
          )
          .toBe(1);
        expect((await advance("1d")).stderr).toBe("");
        expect(await site.waitFor(statusPath, 2, 20_000)).toHaveLength(2);
      }, 90_000);

      it("cuts a transfer waiting for a wallet's row lock on a worker at the route lock's bound: SERVICE_BUSY, nothing moved", async () => {
        // The engine itself, with a route lock of 1 s (bound: 900 ms, ledger/run-movement.ts): the
        // bounds are set on the coordinator, and the wait is on the worker holding bolt's wallet.
        const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
        const routeLock = new MemoryRouteLock();
        const rateLimiter = new MemoryRateLimiter({ limitPerMinute: 1_000 });
        const holder = new pg.Client({ connectionString: database.url });
        await holder.connect();
        try {
          await db.distributed();
          const deps: EngineDependencies = {
            db,
            secretBox: secretBoxFromKey(testSecretKey),
            routeLock,
            rateLimiter,
            captcha: disabledCaptcha,
            events: inProcessEventBus(),
            now: () => new Date(),
            options: { ...defaultEngineOptions, payUrl: "http://localhost/pay", routeLockTtlMs: 1_000 },
          };
          const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
          const balances = () =>
            cluster.coordinator.query(
              "select number, balance_minor::text from wallets where user_id in (1, 2) order by number",
              [],
              distributedName,
            );
          const before = await balances();
          await holder.query("begin");
          await holder.query("select id from wallets where user_id = 2 and number = 'U100000020' for update");
          const started = performance.now();
          const outcome = await transferFunds(deps, acme, {
            walletFrom: "U100000010",
            walletTo: "U100000020",
            amount: "1.00",
          }).then(
            () => "moved",
            (error: unknown) => (error instanceof PurseError ? error.code : String(error)),
          );
          const waited = performance.now() - started;
          expect(outcome).toBe("SERVICE_BUSY");
          expect(waited).toBeGreaterThan(800);
          expect(waited).toBeLessThan(3_000);
          await holder.query("rollback");
          expect(await balances()).toEqual(before);
        } finally {
          await holder.end();
          await routeLock.close();
          await rateLimiter.close();
          await db.close();
        }
      }, 60_000);

      it.runIf(measuring)(
        "measures a transfer between two workers against one on a single worker (PURSE_CITUS_COST)",
        async () => {
          const api = distributedApi as TestServer;
          const ports = await cluster.coordinator.query<{ user_id: string; port: string }>(
            `select u.user_id::text, (select nodeport from citus_shards s
             where s.shardid = get_shard_id_for_distribution_column('wallets', u.user_id))::text as port
           from (values (1), (2), (3)) as u(user_id) order by 1`,
            [],
            distributedName,
          );
          const portOf = (user: string) => ports.find((row) => row.user_id === user)?.port;
          // acme (user 1) pays bolt (user 2) or the cafe (user 3): whichever shares its worker.
          const [sameTo, crossTo] =
            portOf("3") === portOf("1") ? ["U100000030", "U100000020"] : ["U100000020", "U100000030"];
          expect(portOf("2") === portOf("1")).not.toBe(portOf("3") === portOf("1"));
          const acme = await api.token("acme");
          const cross: number[] = [];
          const same: number[] = [];
          // Blocks of ten, alternated ABBA, so that a change of load weighs on both alike.
          for (let block = 0; block < measuring / 10; block++) {
            const order = block % 4 === 0 || block % 4 === 3 ? [cross, same] : [same, cross];
            for (const into of order)
              into.push(
                ...(await transferTimes(api, acme, ["U100000010", into === cross ? crossTo : sameTo], 10)),
              );
          }
          console.log(costLine("distributed, two workers", cross));
          console.log(costLine("distributed, one worker", same));
        },
        600_000,
      );
    });

    it("cannot take users alone as a reference table: its referencing tables would become Citus local tables", async () => {
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
      } finally {
        await client.end();
      }
    }, 120_000);
  },
);

/** The shared tables and who owns a number (migration 0022): a copy on every node. */
const referenceTables = [
  "clients",
  "currencies",
  "rates",
  "settings",
  "users",
  "voucher_numbers",
  "wallet_numbers",
  "operator_keys",
];

/** The owned tables and their owner columns, as `purse citus distribute` (citus-distribution.ts) takes them. */
const ownedTables: [table: string, column: string][] = [
  ["wallets", "user_id"],
  ["transactions", "user_id"],
  ["postings", "user_id"],
  ["idempotency_keys", "user_id"],
  ["access_tokens", "user_id"],
  ["checkouts", "merchant_user_id"],
  ["vouchers", "creator_user_id"],
  ["webhook_endpoints", "user_id"],
  ["events", "user_id"],
  ["webhook_deliveries", "merchant_user_id"],
  ["webhook_attempts", "merchant_user_id"],
  ["event_deliveries", "user_id"],
  ["event_attempts", "user_id"],
  ["history_counts", "user_id"],
  ["history_month_counts", "user_id"],
  ["history_count_deltas", "user_id"],
  ["wallet_days", "user_id"],
  ["wallet_day_deltas", "user_id"],
];

/** Transfers per case when measuring (PURSE_CITUS_COST=<n>, docs/sharding.md "Costs"); 0: not measured. */
const measuring = Number(process.env["PURSE_CITUS_COST"] ?? 0);

/** The wall time of each of `n` transfers of 1.00 (the sample world's minimum) from `wallets[0]` to `wallets[1]` through REST, one after the other. */
async function transferTimes(
  api: TestServer,
  token: string,
  [walletFrom, walletTo]: [string, string],
  n: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const moved = await restDoor(api).transfer(token, { walletFrom, walletTo, amount: "1.00" });
    times.push(performance.now() - started);
    expect(moved.ok ? "moved" : moved.message).toBe("moved");
  }
  return times;
}

function costLine(name: string, times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(1);
  const mean = (times.reduce((sum, time) => sum + time, 0) / times.length).toFixed(1);
  return `${name}: ${times.length} transfers, median ${at(0.5)} ms, p90 ${at(0.9)} ms, mean ${mean} ms; load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}`;
}

/** The merchants' site both workloads' webhooks are sent to (a path per database and receiver). */
let site: MerchantSite;

let fixtureFile: string | undefined;
const fixtureDirs: string[] = [];
afterAll(async () => {
  for (const dir of fixtureDirs) await rm(dir, { recursive: true, force: true });
});

/** The sample world as a fixture file for `purse seed`. */
async function writeFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "purse-citus-fixture-"));
  fixtureDirs.push(dir);
  const file = join(dir, "sample.json");
  await writeFile(file, JSON.stringify(sampleFixture()));
  return file;
}

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

/** `purse seed` with the sample world, then `purse serve`'s stack on `database`. */
async function seedAndServe(database: { name: string; url: string }): Promise<TestServer> {
  fixtureFile ??= await writeFixture();
  const seeded = await purseCli(database, ["seed", fixtureFile]);
  expect(seeded.stderr).toBe("");
  expect(seeded.code).toBe(0);
  // The webhooks' receiver is on 127.0.0.1, as on a developer's machine. Measuring sends more
  // transfers a minute than one user's default budget allows.
  const env = { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" };
  return startTestServer({
    database,
    env: measuring ? { ...env, PURSE_RATE_LIMIT_PER_MINUTE: "100000" } : env,
  });
}

/**
 * The workload both databases run: acme and bolt each add a webhook endpoint (on tRPC), acme pays
 * bolt on each door, a checkout paid on the pay page's endpoint, a voucher bought by bolt and
 * activated by acme, acme's history of the day, and `purse audit`; then the endpoints receive
 * their events and the checkout's status_url its notification, at the merchants' site.
 */
async function runWorkload(api: TestServer, database: { name: string; url: string }): Promise<number[]> {
  const acme = await api.token("acme");
  const bolt = await api.token("bolt");
  const at = `/${database.name}`;
  const endpoints = {
    acme: await trpcClient(api.url, acme).createWebhookEndpoint.mutate({
      url: `${site.url}${at}/acme`,
      events: ["*"],
    }),
    bolt: await trpcClient(api.url, bolt).createWebhookEndpoint.mutate({
      url: `${site.url}${at}/bolt`,
      events: ["*"],
    }),
  };
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

  const checkout = await createCheckout(api, { url: `${site.url}${at}` }, "2.00");
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

  const audit = await purseCli(database, ["audit"]);
  expect(audit.stdout).toContain("The ledger is balanced.");
  expect(audit.code).toBe(0);

  // The checkout's status_url is notified of the payment (the spec's body), and each endpoint
  // receives its owner's events, signed with its own secret: acme (user 1) and bolt (user 2).
  const [notified] = await site.waitFor(`${at}/webhook`, 1, 20_000);
  expect(JSON.parse(notified?.body ?? "{}")).toMatchObject({
    payment_id: checkout.paymentId,
    status: "SUCCESS",
  });
  const typesAt = async (owner: "acme" | "bolt", count: number) =>
    (await site.waitFor(`${at}/${owner}`, count, 20_000))
      .map((received) => verifiedEvent(received, endpoints[owner].secret).type)
      .sort();
  expect(await typesAt("acme", 5)).toEqual([
    "checkout.succeeded",
    "transfer.sent",
    "transfer.sent",
    "transfer.sent",
    "voucher.activated",
  ]);
  expect(await typesAt("bolt", 4)).toEqual([
    "transfer.received",
    "transfer.received",
    "transfer.received",
    "voucher.purchased",
  ]);
  return ids;
}

/** The workload's statements on the local tables, which the distributed schema's must equal. */
let localStatements: unknown;
/** The workload's transfers on the local tables. */
let localTransfers: number[] = [];

/**
 * `purse statement` after the workload (whose transfers are `transfers`): acme's wallet for the
 * day (opening on nothing, the seed's deposit a line) and bolt's from the instant of the second
 * transfer (opening on the seed's deposit and the first transfer), each checked to reconcile, and
 * answered without what differs between two databases (ids, times, an order's or a voucher's
 * number in a description): the figures.
 */
async function statementsAfter(
  database: { name: string; url: string },
  transfers: number[],
): Promise<unknown> {
  const [second] = await queryDatabase<{ at: Date }>(
    database.url,
    "select created_at as at from transactions where id = $1",
    [transfers[1]],
  );
  const today = new Date().toISOString().slice(0, 10);
  const figures = [];
  for (const [wallet, from] of [
    ["U100000010", today],
    ["U100000020", second?.at.toISOString() ?? ""],
  ] as const) {
    const run = await purseCli(database, ["statement", wallet, "--from", from]);
    expect(run.stderr).toBe("");
    const { from: _from, to: _to, lines, ...statement } = JSON.parse(run.stdout) as WalletStatement;
    // Ending now, it closes on the wallet's balance, its lines adding up from its opening.
    const [balance] = await queryDatabase<{ balance: string }>(
      database.url,
      "select balance_minor::text as balance from wallets where number = $1",
      [wallet],
    );
    expect(minor(statement.closingBalance)).toBe(BigInt(balance?.balance ?? "x"));
    expect(lines.reduce((sum, line) => sum + minor(line.amount), minor(statement.openingBalance))).toBe(
      minor(statement.closingBalance),
    );
    figures.push({
      ...statement,
      lines: lines.map(
        ({ transactionId: _id, at: _at, reversesTransactionId: _reverses, description: _text, ...line }) =>
          line,
      ),
    });
  }
  const [acme, bolt] = figures;
  // acme's day: the seed's deposit, three transfers out, the checkout and the voucher in.
  expect(acme?.lines.map((line) => line.typeName)).toHaveLength(6);
  // bolt's, from the second transfer: two transfers in (acme's, on the other worker), the
  // checkout paid and the voucher bought.
  expect(bolt?.lines).toHaveLength(4);
  expect(bolt?.openingBalance).not.toBe("0.00");
  return figures;
}

/** An exact decimal ("-12.50") in minor units, for adding a statement's figures up. */
function minor(amount: string): bigint {
  const [whole = "0", fraction = ""] = amount.replace("-", "").split(".");
  return BigInt(whole + fraction) * (amount.startsWith("-") ? -1n : 1n);
}
