import { loadavg } from "node:os";
import { auditLedger, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { readHistoryFilter } from "../packages/engine/src/transactions/history-filter.ts";
import { historyQueries } from "../packages/engine/src/transactions/history-store.ts";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { growLedger, historyMerchant } from "./history-load.ts";
import { explain, resetStatementStats, statementStats } from "./history-probe.ts";
import { drive, type LoadResult } from "./load.ts";
import { startPurse } from "./purse-process.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

export interface HistoryFigures {
  readonly sizes: {
    readonly transactions: number;
    /** The `purse` build measured (PURSE_BENCH_HISTORY_BINS), or "" for this checkout's. */
    readonly bin: string;
    readonly load: LoadResult;
    /** The GraphQL search of the same window: its first page of 20 and its totals, one request. */
    readonly search: LoadResult;
    readonly loadMs: number;
    /** Purse's own CPU (user + system) per answered request. */
    readonly cpuPerRequestMs: number;
    /** The 1-minute load average when the size's load ended. */
    readonly loadAverage: number;
  }[];
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
      // PURSE_BENCH_HISTORY_BINS: builds of `purse` (bin/purse.js paths, say before and after a
      // change) measured one after the other on the same ledger, so their ratios share one run.
      for (const bin of historyBins) {
        const measured = await measureSize(database, environment(database), bin, input, connections, seconds);
        const { load, search, cpuPerRequestMs, loadAverage } = measured;
        console.log(
          `  ${size} transactions${bin ? ` (${bin})` : ""} (loaded in ${(loadMs / 1000).toFixed(1)} s): ${load.perSecond.toFixed(0)}/s, p50 ${load.p50} ms, p99 ${load.p99} ms, Purse CPU ${cpuPerRequestMs.toFixed(2)} ms/request (${load.refused} refused, ${load.errors} errors, load ${loadAverage.toFixed(1)})`,
        );
        console.log(`    PostgreSQL per statement:\n      ${measured.statements.join("\n      ")}`);
        console.log(
          `    GraphQL search, page and totals: ${search.perSecond.toFixed(0)}/s, p50 ${search.p50} ms, p99 ${search.p99} ms (${search.refused} refused, ${search.errors} errors)`,
        );
        figures.push({
          transactions: size,
          bin: bin ?? "",
          load,
          search,
          loadMs,
          cpuPerRequestMs,
          loadAverage,
        });
      }
      if (process.env["PURSE_BENCH_EXPLAIN_EACH"]) await explainRequest(db, database.url, input);
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
    // PURSE_BENCH_KEEP_DATABASE=1 leaves the loaded ledger for EXPLAINs by hand (psql).
    if (process.env["PURSE_BENCH_KEEP_DATABASE"]) console.log(`  kept database ${database.name}`);
    else await database.drop();
  }
}

const historyBins: (string | undefined)[] = process.env["PURSE_BENCH_HISTORY_BINS"]?.split(",") ?? [
  undefined,
];

type HistoryInput = Parameters<typeof readHistoryFilter>[0];

/** One build of Purse under load at one ledger size: latency, its CPU, PostgreSQL's statements. */
async function measureSize(
  database: ScratchDatabase,
  env: Record<string, string>,
  bin: string | undefined,
  input: HistoryInput,
  connections: number,
  seconds: number,
) {
  const server = await startPurse(env, undefined, bin);
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
    await resetStatementStats(database.url);
    const cpuBefore = await server.cpuMs();
    const load = await drive([target], connections, seconds);
    const cpuPerRequestMs = ((await server.cpuMs()) - cpuBefore) / Math.max(1, load.ok);
    const loadAverage = loadavg()[0] ?? 0;
    const statements = await statementStats(database.url);
    const search = await measureSearch(server.url, token, input, connections, seconds);
    return { load, search, cpuPerRequestMs, loadAverage, statements };
  } finally {
    await server.stop();
  }
}

/**
 * The dashboards' search over the same window (POST /graphql): page 1 of 20 and the window's
 * totals per currency, which the GraphQL and tRPC doors read from one snapshot.
 */
async function measureSearch(
  url: string,
  token: string,
  input: HistoryInput,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const body = JSON.stringify({
    query: `query Search($from: String!, $until: String!) {
      transactions(first: 20, filter: { from: $from, until: $until }) {
        totals { currency count amount commission }
        edges { node { id createdAt amount status } }
      }
    }`,
    variables: { from: input.startDate, until: input.endDate },
  });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  // GraphQL answers its errors with a 200: the load would count them as answers.
  const probe = (await (await fetch(`${url}/graphql`, { method: "POST", headers, body })).json()) as {
    errors?: unknown;
    data?: { transactions?: { edges?: unknown[] } };
  };
  if (probe.errors || probe.data?.transactions?.edges?.length !== 20)
    throw new Error(`the GraphQL search did not answer a page of 20: ${JSON.stringify(probe).slice(0, 300)}`);
  const target = { url, path: "/graphql", request: () => ({ headers, body }) };
  await drive([target], connections, 1);
  return drive([target], connections, seconds);
}

/** Every statement of one history request, EXPLAINed as sent: the count, the page, the token lookup. */
async function explainRequest(
  db: Awaited<ReturnType<typeof openDatabase>>,
  url: string,
  input: HistoryInput,
): Promise<void> {
  const queries = historyQueries(historyMerchant, readHistoryFilter(input));
  for (const [name, query] of Object.entries(queries)) {
    const compiled = query.compile(db.em().getKysely());
    console.log(`    EXPLAIN ${name}:\n${await explain(url, compiled.sql, compiled.parameters)}`);
  }
  console.log(`    EXPLAIN token lookup:\n${await explain(url, tokenLookup, [])}`);
}

/** findLiveToken's statement (auth/credential-store.ts) for the newest token. */
const tokenLookup = `
  select t.user_id, t.client_id, t.scope, u.role, t.expires_at
  from access_tokens t join users u on u.id = t.user_id
  where t.token_hash = (select token_hash from access_tokens order by created_at desc limit 1)
    and t.revoked_at is null and t.expires_at > now()`;

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
