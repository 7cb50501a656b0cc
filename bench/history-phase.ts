import { auditLedger, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import pg from "pg";
import { readHistoryFilter } from "../packages/engine/src/transactions/history-filter.ts";
import { historyQueries } from "../packages/engine/src/transactions/transaction-search-store.ts";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { growLedger, historyMerchant } from "./history-load.ts";
import { drive, type LoadResult } from "./load.ts";
import { startPurse } from "./purse-process.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

export interface HistoryFigures {
  readonly sizes: { readonly transactions: number; readonly load: LoadResult; readonly loadMs: number }[];
  readonly audit: string;
  /** EXPLAIN (ANALYZE, BUFFERS) at the largest size: the query before the rewrite, and as it runs now. */
  readonly explainBefore: string;
  readonly explainAfter: string;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * `GET /api/transactions/histories` (last 30 days, page 1 of 20) for one merchant among 32 while
 * the ledger grows to each of `sizes` transactions (history-load.ts, bulk SQL). The merchant's own
 * history stays 2 000 transactions: what must stay flat is the cost of finding them.
 */
export async function measureHistory(
  sizes: readonly number[],
  connections: number,
  seconds: number,
  environment: (database: ScratchDatabase) => Record<string, string>,
): Promise<HistoryFigures> {
  const database = await createScratchDatabase("purse_history");
  try {
    const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
    await db.migrate();
    await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
    const input = { startDate: day(-30), endDate: day(0), page: 1, itemsPerPage: 20 };
    const figures: HistoryFigures["sizes"] = [];
    let loaded = 0;
    for (const size of sizes) {
      const started = performance.now();
      await growLedger(database, loaded, size);
      loaded = size;
      const loadMs = performance.now() - started;
      const server = await startPurse(environment(database));
      try {
        const token = await merchantToken(server.url);
        const target = {
          url: server.url,
          method: "GET" as const,
          path: `/api/transactions/histories?${new URLSearchParams(
            Object.entries(input).map(([key, value]) => [key, String(value)]),
          )}`,
          request: () => ({ headers: { authorization: `Bearer ${token}` } }),
        };
        await drive([target], connections, 1);
        const load = await drive([target], connections, seconds);
        console.log(
          `  ${size} transactions (loaded in ${(loadMs / 1000).toFixed(1)} s): ${load.perSecond.toFixed(0)}/s, p50 ${load.p50} ms, p99 ${load.p99} ms (${load.refused} refused, ${load.errors} errors)`,
        );
        figures.push({ transactions: size, load, loadMs });
      } finally {
        await server.stop();
      }
    }
    const report = await auditLedger(db);
    const audit = report.ok ? `balanced (${report.transactions} transactions)` : "BREACHED";
    if (!report.ok) process.exitCode = 1;
    const compiled = historyQueries(historyMerchant, readHistoryFilter(input)).page.compile(
      db.em().getKysely(),
    );
    const explainAfter = await explain(database.url, compiled.sql, compiled.parameters);
    const explainBefore = await explain(database.url, beforeRewrite, [
      historyMerchant,
      `${input.startDate}T00:00:00Z`,
      new Date(`${input.endDate}T00:00:00Z`).getTime() + 86_400_000,
    ]);
    await db.close();
    console.log(`  ledger ${audit}`);
    return { sizes: figures, audit, explainBefore, explainAfter };
  } finally {
    await database.drop();
  }
}

/** The history page as it ran before `touchedBy` (transactions/transaction-search-store.ts). */
const beforeRewrite = `
  select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to, c.code, c.precession,
    t.amount_from_minor, t.amount_to_minor, t.description, t.additional, v.number, t.created_at, t.updated_at
  from transactions t
  join currencies c on c.id = t.currency_id
  left join wallets wf on wf.id = t.wallet_from_id
  left join wallets wt on wt.id = t.wallet_to_id
  left join vouchers v on v.activation_transaction_id = t.id
  where (wf.user_id = $1 or wt.user_id = $1)
    and t.created_at >= $2 and t.created_at < to_timestamp($3::double precision / 1000)
  order by t.created_at desc, t.id desc limit 20 offset 0`;

async function explain(url: string, text: string, parameters: readonly unknown[]): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers, costs off) ${text}`,
      [...parameters],
    );
    return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.end();
  }
}

async function merchantToken(url: string): Promise<string> {
  const response = await fetch(`${url}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: `bench${historyMerchant}`,
      client_secret: "bench-secret",
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
