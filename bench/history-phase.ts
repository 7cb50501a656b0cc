import { auditLedger, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { amountTotalsCap } from "../packages/engine/src/transactions/amount-totals-cap.ts";
import { readHistoryFilter } from "../packages/engine/src/transactions/history-filter.ts";
import { historyQueries } from "../packages/engine/src/transactions/history-store.ts";
import { benchFixture, benchSecretKey, walletNumber } from "./bench-fixture.ts";
import { growMerchantHistory, historyMerchant, merchantToken } from "./history-load.ts";
import { explain, explainGeneric, query, resetStatementStats, statementStats } from "./history-probe.ts";
import { startPurse } from "./purse-process.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

/** One kind of request, `requestsPerCase` times in a row at one history size. */
export interface HistoryCase {
  readonly name: string;
  readonly door: "REST" | "GraphQL";
  readonly p50: number;
  readonly p99: number;
  /**
   * The total the answer carried (REST `meta.total`, GraphQL `totals.count`): exact, or under
   * amount bounds counted up to the cap (`amountTotalsCap`).
   */
  readonly total: number;
}

export interface HistoryFigures {
  readonly sizes: {
    readonly transactions: number;
    readonly loadMs: number;
    readonly cases: readonly HistoryCase[];
  }[];
  readonly audit: string;
  /** EXPLAIN (ANALYZE, BUFFERS) at the largest size, whole range: the count as it was, and now. */
  readonly explainBefore: string;
  readonly explainCount: string;
  /** The count under `amountBounded` (the rows counted up to the cap). */
  readonly explainAmountCount: string;
  readonly explainPage: string;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Requests per case, one after the other (issue 23's measurement); a few in CI's smoke run.
 * 500: a p99 is then the fifth slowest request, not the second slowest of 150, which swung by 2×
 * between sizes whose p50 did not move (docs/benchmark.md). PURSE_BENCH_HISTORY_REQUESTS sets it.
 */
export const requestsPerCase = Number(
  process.env["PURSE_BENCH_HISTORY_REQUESTS"] ?? (process.env["PURSE_BENCH_SMOKE"] ? 20 : 500),
);

/** The periods measured: the last day (today, UTC) and everything since long before the first row. */
const periods = {
  "last day": { startDate: day(0), endDate: day(0) },
  "whole range": { startDate: "2000-01-01", endDate: day(0) },
} as const;

/** A filter a dashboard sends: one wallet of the merchant, transfers that succeeded. */
const filtered = { walletNumber: walletNumber(historyMerchant, 0), type: 1, status: 3 } as const;

/**
 * Amount bounds: at least 123.45, which about a third of the loaded amounts are (history-load.ts,
 * `merchantAmount`). No counter answers them: the total counts the rows up to the cap.
 */
const amountBounded = { minAmount: "123.45" } as const;

type CaseFilter = {
  walletNumber?: string;
  type?: number;
  status?: number;
  minAmount?: string;
};

const caseFilters: readonly { label: string; filter: CaseFilter }[] = [
  { label: "", filter: {} },
  { label: ", one wallet, type and status", filter: filtered },
  { label: ", minAmount 123.45", filter: amountBounded },
];

/**
 * Issue 23's case: one merchant whose own history grows to each of `sizes` transactions (one
 * every 30 s going back in time, history-load.ts), then page 1 of 20 and its exact total,
 * `requestsPerCase` sequential requests per case, for the last day and the whole range, with and
 * without a filter, on REST (`GET /api/transactions/histories`) and GraphQL (`transactions(first: 20)`
 * with `totals`). What must stay flat from the smallest size to the largest is each case's p99.
 */
export async function measureHistory(
  sizes: readonly number[],
  environment: (database: ScratchDatabase) => Record<string, string>,
): Promise<HistoryFigures> {
  const database = await createScratchDatabase("purse_history");
  try {
    const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
    await db.migrate();
    await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
    const figures: HistoryFigures["sizes"][number][] = [];
    let loaded = 0;
    for (const size of sizes) {
      const started = performance.now();
      await growMerchantHistory(database, loaded, size);
      loaded = size;
      const loadMs = performance.now() - started;
      await resetStatementStats(database.url);
      // The exact total, counted row by row as before the daily counts: every answer must say it.
      const expected = Number(
        (await query<{ total: string }>(database.url, countBefore, [historyMerchant]))[0]?.total,
      );
      const bounded = Number(
        (await query<{ total: string }>(database.url, countBounded, [historyMerchant, 12_345]))[0]?.total,
      );
      const cases = await measureSize(environment(database), expected, bounded);
      console.log(`  ${size} transactions of one merchant (loaded in ${(loadMs / 1000).toFixed(1)} s):`);
      for (const measured of cases) {
        console.log(
          `    ${measured.door} ${measured.name}: p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms (total ${measured.total})`,
        );
      }
      console.log(
        `    PostgreSQL per statement:\n      ${(await statementStats(database.url)).join("\n      ")}`,
      );
      figures.push({ transactions: size, loadMs, cases });
      if (process.env["PURSE_BENCH_EXPLAIN_EACH"]) await explainRequest(db, database.url, wholeRange);
    }
    const report = await auditLedger(db);
    const audit = report.ok ? `balanced (${report.transactions} transactions)` : "BREACHED";
    if (!report.ok) {
      process.exitCode = 1;
      console.log(report.checks.filter((check) => check.breaches.length > 0));
    }
    const kysely = db.em().getKysely();
    const queries = historyQueries(historyMerchant, readHistoryFilter(wholeRange));
    const count = queries.count.compile(kysely);
    const page = queries.page.compile(kysely);
    const explainCount = await explainGeneric(database.url, count.sql, count.parameters);
    const amountCount = historyQueries(
      historyMerchant,
      readHistoryFilter({ ...wholeRange, ...amountBounded }),
    ).count.compile(kysely);
    const explainAmountCount = await explainGeneric(database.url, amountCount.sql, amountCount.parameters);
    const explainPage = await explainGeneric(database.url, page.sql, page.parameters);
    const explainBefore = await explainGeneric(database.url, countBefore, [historyMerchant]);
    await db.close();
    console.log(`  ledger ${audit}`);
    return { sizes: figures, audit, explainBefore, explainCount, explainAmountCount, explainPage };
  } finally {
    // PURSE_BENCH_KEEP_DATABASE=1 leaves the loaded ledger for EXPLAINs by hand (psql).
    if (process.env["PURSE_BENCH_KEEP_DATABASE"]) console.log(`  kept database ${database.name}`);
    else await database.drop();
  }
}

const wholeRange = { ...periods["whole range"], page: 1, itemsPerPage: 20 };

type HistoryInput = Parameters<typeof readHistoryFilter>[0];

/** Every case at one size, against one Purse process; each answer is checked, then timed. */
async function measureSize(
  env: Record<string, string>,
  expected: number,
  expectedBounded: number,
): Promise<HistoryCase[]> {
  const server = await startPurse(env);
  try {
    const token = await merchantToken(server.url);
    const probes = Object.entries(periods).flatMap(([period, dates]) =>
      caseFilters.flatMap(({ label, filter }) => [
        {
          name: `${period}${label}`,
          door: "REST" as const,
          probe: restRequest(server.url, token, { ...dates, page: 1, itemsPerPage: 20, ...filter }),
        },
        {
          name: `${period}${label}`,
          door: "GraphQL" as const,
          probe: graphqlRequest(server.url, token, dates, filter),
        },
      ]),
    );
    // Every case once through before any is timed, as the transfer phases throw their first
    // seconds away: otherwise the cases timed first met a server still compiling its code and, at
    // the larger size, the rows the load had pushed out of PostgreSQL's buffers (the first cases
    // at 1M read 1.4x to 1.8x their later p50 in one run: docs/benchmark.md, "The totals at their cap").
    for (const { probe } of probes) for (let warm = 0; warm < warmUpPerCase; warm += 1) await probe();
    const cases: HistoryCase[] = [];
    for (const { name, door, probe } of probes) cases.push({ name, door, ...(await timed(probe)) });
    const whole = cases.find((measured) => measured.name === "whole range");
    if (whole?.total !== expected)
      throw new Error(`the whole range's total is ${whole?.total}, not ${expected}`);
    // Counted up to the cap: the row-by-row count, or the cap when more match.
    const bounded = Math.min(expectedBounded, amountTotalsCap);
    for (const measured of cases.filter((each) => each.name === "whole range, minAmount 123.45")) {
      if (measured.total !== bounded)
        throw new Error(`${measured.door} whole range over 123.45 totals ${measured.total}, not ${bounded}`);
    }
    return cases;
  } finally {
    await server.stop();
  }
}

/** One request that answers page 1 of 20 and its total, or throws. */
type Probe = () => Promise<number>;

/** Requests per case in the warm pass before any case is timed (a few in CI's smoke run). */
const warmUpPerCase = process.env["PURSE_BENCH_SMOKE"] ? 2 : 50;

/** A few requests to warm up, then `requestsPerCase` timed one after the other. */
async function timed(probe: Probe): Promise<{ p50: number; p99: number; total: number }> {
  let total = 0;
  for (let warm = 0; warm < 5; warm += 1) total = await probe();
  const times: number[] = [];
  for (let request = 0; request < requestsPerCase; request += 1) {
    const started = performance.now();
    await probe();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (quantile: number) =>
    times[Math.min(times.length - 1, Math.ceil(quantile * times.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), total };
}

function restRequest(url: string, token: string, input: HistoryInput): Probe {
  const query = new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)]));
  return async () => {
    const response = await fetch(`${url}/api/transactions/histories?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { data?: { items?: unknown[]; meta?: { total?: number } } };
    const total = body.data?.meta?.total;
    if (
      response.status !== 200 ||
      total === undefined ||
      (body.data?.items?.length ?? 0) !== Math.min(20, total)
    )
      throw new Error(`REST history did not answer a page: ${JSON.stringify(body).slice(0, 300)}`);
    return total;
  };
}

const typeNames: Record<number, string> = { 1: "TRANSFER" };
const statusNames: Record<number, string> = { 3: "SUCCESS" };

function graphqlRequest(
  url: string,
  token: string,
  dates: { startDate: string; endDate: string },
  filter: CaseFilter,
): Probe {
  const body = JSON.stringify({
    query: `query Search($filter: TransactionFilter) {
      transactions(first: 20, filter: $filter) {
        totals { currency count amount commission }
        edges { node { id createdAt amount status } }
      }
    }`,
    variables: {
      filter: {
        from: dates.startDate,
        until: dates.endDate,
        ...(filter.walletNumber ? { walletNumber: filter.walletNumber } : {}),
        ...(filter.type ? { type: typeNames[filter.type] } : {}),
        ...(filter.status ? { status: statusNames[filter.status] } : {}),
        ...(filter.minAmount ? { minAmount: filter.minAmount } : {}),
      },
    },
  });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return async () => {
    const response = await fetch(`${url}/graphql`, { method: "POST", headers, body });
    // GraphQL answers its errors with a 200: the answer is checked, not only its status.
    const answer = (await response.json()) as {
      data?: { transactions?: { edges?: unknown[]; totals?: { count: number }[] } };
    };
    const totals = answer.data?.transactions?.totals;
    const total = totals?.reduce((sum, row) => sum + row.count, 0);
    if (total === undefined || (answer.data?.transactions?.edges?.length ?? 0) !== Math.min(20, total))
      throw new Error(`the GraphQL search did not answer a page: ${JSON.stringify(answer).slice(0, 300)}`);
    return total;
  };
}

/** Every statement of one history request, EXPLAINed as sent: the count, the page, the token lookup. */
async function explainRequest(
  db: Awaited<ReturnType<typeof openDatabase>>,
  url: string,
  input: HistoryInput,
): Promise<void> {
  const queries = historyQueries(historyMerchant, readHistoryFilter(input));
  for (const [name, query] of [
    ["count", queries.count],
    ["page", queries.page],
  ] as const) {
    const compiled = query.compile(db.em().getKysely());
    console.log(`    EXPLAIN ${name}:\n${await explainGeneric(url, compiled.sql, compiled.parameters)}`);
  }
  console.log(`    EXPLAIN token lookup:\n${await explain(url, tokenLookup, [])}`);
}

/** findLiveToken's statement (auth/credential-store.ts) for the newest token. */
const tokenLookup = `
  select t.user_id, t.client_id, t.scope, u.role, t.expires_at
  from access_tokens t join users u on u.id = t.user_id
  where t.token_hash = (select token_hash from access_tokens order by created_at desc limit 1)
    and t.revoked_at is null and t.expires_at > now()`;

/** The history's count as it ran before the daily counts (issue 23): every matching row, counted. */
const countBefore = `
  select count(*) as total from (
    select id from transactions where wallet_from_id in (select w.id from wallets w where w.user_id = $1)
    union
    select id from transactions where wallet_to_id in (select w.id from wallets w where w.user_id = $1)) as m`;

/** The same, over amounts of at least $2 minor units: every matching row, counted. */
const countBounded = `
  select count(*) as total from transactions t
  where (t.wallet_from_id in (select w.id from wallets w where w.user_id = $1)
         or t.wallet_to_id in (select w.id from wallets w where w.user_id = $1))
    and t.amount_minor >= $2`;
