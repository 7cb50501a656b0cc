import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import {
  auditLedger,
  type DistributionStep,
  distributeOnCitus,
  openDatabase,
  secretBoxFromKey,
  seedFixture,
} from "@purse/engine";
import { afterAll, describe, expect, it } from "vitest";
import { benchFixture, benchSecretKey } from "../../bench/bench-fixture.ts";
import { growLedger } from "../../bench/history-load.ts";
import { runSql } from "../../bench/scratch-database.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";

/**
 * docs/sharding.md, "Moving a large database's data": how long the first `purse citus distribute`
 * of a ledger that is already large takes. Citus copies every row of each table into its shards
 * inside the step's one transaction, so Purse is stopped for that long. Opt-in, like the cost runs
 * of citus-cluster.test.ts (minutes of both cores): PURSE_CITUS_DISTRIBUTE_TRANSACTIONS=<n> loads
 * the bench world (bench/bench-fixture.ts) and n transfers with SQL as the history bench does
 * (bench/history-load.ts: rows, postings, balances, hashes and chains, counters folded) into the
 * coordinator's local tables, then distributes them and audits the result.
 */
const transactions = Number(process.env["PURSE_CITUS_DISTRIBUTE_TRANSACTIONS"] ?? 0);
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

describe.skipIf(!transactions)(
  "the first distribution of a large ledger (PURSE_CITUS_DISTRIBUTE_TRANSACTIONS)",
  () => {
    let cluster: CitusCluster | undefined;
    const name = `purse_citus_large_${process.pid}`;

    afterAll(async () => {
      await cluster?.stop();
    });

    it(
      `distributes ${transactions} transfers with their data: the same balances after, the audit balanced`,
      async () => {
        if (!installed) await ensureCitusInstalled();
        cluster = await startCitusCluster();
        const url = await cluster.createDatabase(name);
        const db = await openDatabase({ kind: "postgres", url }, { poolSize: 2 });
        try {
          await db.migrate();
          await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
          const loadStarted = performance.now();
          await growLedger(
            { name, url, sql: (text) => runSql(url, text), drop: async () => undefined },
            0,
            transactions,
          );
          const loadSeconds = (performance.now() - loadStarted) / 1000;
          const balances = () =>
            cluster?.coordinator.query("select id, balance_minor::text from wallets order by id", [], name);
          const before = await balances();
          const [counted] = await cluster.coordinator.query<{
            transactions: string;
            postings: string;
            size: string;
          }>(
            `select (select count(*) from transactions)::text as transactions, (select count(*) from postings)::text as postings,
           pg_size_pretty(pg_total_relation_size('transactions') + pg_total_relation_size('postings')) as size`,
            [],
            name,
          );

          const steps: DistributionStep[] = [];
          const load = [loadavg()[0]];
          const started = performance.now();
          const distribution = await distributeOnCitus(db, (step) => steps.push(step));
          const seconds = (performance.now() - started) / 1000;
          load.push(loadavg()[0]);
          const auditStarted = performance.now();
          // A handle asks once whether its database is distributed (persistence/citus-routing.ts): the
          // audit runs on a new one, as `purse audit` would after the step.
          const distributed = await openDatabase({ kind: "postgres", url }, { poolSize: 2 });
          const audit = await auditLedger(distributed).finally(() => distributed.close());
          const auditSeconds = (performance.now() - auditStarted) / 1000;

          const slowest = [...steps].sort((a, b) => b.ms - a.ms).slice(0, 4);
          console.log(
            [
              `loaded ${transactions} transfers in ${loadSeconds.toFixed(0)} s: ${counted?.transactions} transactions, ${counted?.postings} postings, ${counted?.size} with their indexes`,
              `distributed in ${seconds.toFixed(1)} s (load average ${load.map((value) => value?.toFixed(1)).join(" -> ")}):`,
              ...slowest.map(
                (step) => `  ${step.table}: ${step.rows} rows in ${(step.ms / 1000).toFixed(1)} s`,
              ),
              `audit on the distributed ledger: ${auditSeconds.toFixed(1)} s, ${audit.ok ? "balanced" : "BREACHED"} (${audit.transactions} transactions)`,
            ].join("\n"),
          );

          expect(distribution.distributed).toContain("transactions");
          expect(steps.find((step) => step.table === "transactions")?.rows).toBe(
            Number(counted?.transactions),
          );
          expect(steps.find((step) => step.table === "postings")?.rows).toBe(Number(counted?.postings));
          expect(await balances()).toEqual(before);
          expect(audit.ok).toBe(true);
          expect(audit.transactions).toBeGreaterThanOrEqual(transactions);
        } finally {
          await db.close();
        }
      },
      120 * 60_000,
    );
  },
);
