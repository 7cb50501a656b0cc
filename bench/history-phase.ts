import { auditLedger, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { amountTotalsCap } from "../packages/engine/src/transactions/amount-totals-cap.ts";
import { readHistoryFilter } from "../packages/engine/src/transactions/history-filter.ts";
import { historyQueries } from "../packages/engine/src/transactions/history-store.ts";
import { benchFixture, benchSecretKey, walletNumber } from "./bench-fixture.ts";
import { growMerchantHistory, historyMerchant, merchantToken } from "./history-load.ts";
import { explain, explainGeneric, query, resetStatementStats, statementStats } from "./history-probe.ts";
import { type PurseProcess, startPurse } from "./purse-process.ts";
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
 * Issue 23's case: one merchant whose own history holds each of `sizes` transactions (one every
 * 30 s going back in time, history-load.ts), then page 1 of 20 and its exact total,
 * `requestsPerCase` sequential requests per case, for the last day and the whole range, with and
 * without a filter, on REST (`GET /api/transactions/histories`) and GraphQL (`transactions(first: 20)`
 * with `totals`). What must stay flat from the smallest size to the largest is each case's p99.
 *
 * Each size is a ledger of its own with a `purse serve` of its own, all loaded before any is
 * timed, and each case's requests go to the sizes in turn (10k, 1M, 1M, 10k...): measured one
 * size after the other, minutes apart, the same case moved by half between runs on a 2-core
 * machine, which was the ratio's noise rather than the size's (docs/benchmark.md, "The totals at
 * their cap").
 */
export async function measureHistory(
  sizes: readonly number[],
  environment: (database: ScratchDatabase) => Record<string, string>,
): Promise<HistoryFigures> {
  const ledgers: Ledger[] = [];
  const servers: PurseProcess[] = [];
  try {
    for (const size of sizes) ledgers.push(await loadLedger(size));
    for (const ledger of ledgers) servers.push(await startPurse(environment(ledger.database)));
    const measured = await measureSizes(ledgers, servers);
    const figures = ledgers.map((ledger, index) => ({
      transactions: ledger.size,
      loadMs: ledger.loadMs,
      cases: measured[index] ?? [],
    }));
    for (const [index, { transactions, loadMs, cases }] of figures.entries()) {
      console.log(
        `  ${transactions} transactions of one merchant (loaded in ${(loadMs / 1000).toFixed(1)} s):`,
      );
      for (const each of cases) {
        console.log(
          `    ${each.door} ${each.name}: p50 ${each.p50.toFixed(1)} ms, p99 ${each.p99.toFixed(1)} ms (total ${each.total})`,
        );
      }
      const url = ledgers[index]?.database.url ?? "";
      console.log(`    PostgreSQL per statement:\n      ${(await statementStats(url)).join("\n      ")}`);
    }
    const largest = ledgers[ledgers.length - 1] as Ledger;
    const db = await openDatabase({ kind: "postgres", url: largest.database.url }, { poolSize: 2 });
    try {
      if (process.env["PURSE_BENCH_EXPLAIN_EACH"])
        for (const ledger of ledgers) await explainRequest(db, ledger.database.url, wholeRange);
      const reports = [];
      for (const ledger of ledgers.slice(0, -1)) {
        const each = await openDatabase({ kind: "postgres", url: ledger.database.url }, { poolSize: 2 });
        reports.push(await auditLedger(each));
        await each.close();
      }
      reports.push(await auditLedger(db)); // the largest, on the connection already open to it
      const breached = reports.filter((report) => !report.ok);
      const audit =
        breached.length === 0
          ? `balanced (${reports.map((report) => report.transactions).join(", ")} transactions)`
          : "BREACHED";
      for (const report of breached) {
        process.exitCode = 1;
        console.log(report.checks.filter((check) => check.breaches.length > 0));
      }
      const kysely = db.em().getKysely();
      const url = largest.database.url;
      const queries = historyQueries(historyMerchant, readHistoryFilter(wholeRange));
      const count = queries.count.compile(kysely);
      const page = queries.page.compile(kysely);
      const explainCount = await explainGeneric(url, count.sql, count.parameters);
      const amountCount = historyQueries(
        historyMerchant,
        readHistoryFilter({ ...wholeRange, ...amountBounded }),
      ).count.compile(kysely);
      const explainAmountCount = await explainGeneric(url, amountCount.sql, amountCount.parameters);
      const explainPage = await explainGeneric(url, page.sql, page.parameters);
      const explainBefore = await explainGeneric(url, countBefore, [historyMerchant]);
      console.log(`  ledgers ${audit}`);
      return { sizes: figures, audit, explainBefore, explainCount, explainAmountCount, explainPage };
    } finally {
      await db.close();
    }
  } finally {
    for (const server of servers) await server.stop();
    for (const { database } of ledgers) {
      // PURSE_BENCH_KEEP_DATABASE=1 leaves the loaded ledgers for EXPLAINs by hand (psql).
      if (process.env["PURSE_BENCH_KEEP_DATABASE"]) console.log(`  kept database ${database.name}`);
      else await database.drop();
    }
  }
}

/** One size's ledger, loaded, with the totals every answer must carry. */
interface Ledger {
  readonly size: number;
  readonly database: ScratchDatabase;
  readonly loadMs: number;
  /** The whole range's exact total, counted row by row as before the daily counts. */
  readonly expected: number;
  /** The rows over 123.45, counted row by row. */
  readonly expectedBounded: number;
}

async function loadLedger(size: number): Promise<Ledger> {
  const database = await createScratchDatabase("purse_history");
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  try {
    await db.migrate();
    await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
  } finally {
    await db.close();
  }
  const started = performance.now();
  await growMerchantHistory(database, 0, size);
  const loadMs = performance.now() - started;
  await resetStatementStats(database.url);
  const expected = Number(
    (await query<{ total: string }>(database.url, countBefore, [historyMerchant]))[0]?.total,
  );
  const expectedBounded = Number(
    (await query<{ total: string }>(database.url, countBounded, [historyMerchant, 12_345]))[0]?.total,
  );
  return { size, database, loadMs, expected, expectedBounded };
}

const wholeRange = { ...periods["whole range"], page: 1, itemsPerPage: 20 };

type HistoryInput = Parameters<typeof readHistoryFilter>[0];

/**
 * Every case at every size, each size against its own Purse process: every answer is checked,
 * then each case timed with its requests sent to the sizes in turn. Answers the cases per size.
 */
async function measureSizes(
  ledgers: readonly Ledger[],
  servers: readonly PurseProcess[],
): Promise<HistoryCase[][]> {
  const tokens = await Promise.all(servers.map((server) => merchantToken(server.url)));
  const probesAt = (index: number) => {
    const url = servers[index]?.url ?? "";
    const token = tokens[index] ?? "";
    return Object.entries(periods).flatMap(([period, dates]) =>
      caseFilters.flatMap(({ label, filter }) => [
        {
          name: `${period}${label}`,
          door: "REST" as const,
          probe: restRequest(url, token, { ...dates, page: 1, itemsPerPage: 20, ...filter }),
        },
        {
          name: `${period}${label}`,
          door: "GraphQL" as const,
          probe: graphqlRequest(url, token, dates, filter),
        },
      ]),
    );
  };
  const probes = ledgers.map((_, index) => probesAt(index));
  // Every case once through before any is timed, as the transfer phases throw their first
  // seconds away: the cases timed first otherwise met servers still compiling their code and, at
  // the larger sizes, rows the load had pushed out of PostgreSQL's buffers.
  for (const sized of probes)
    for (const { probe } of sized) for (let warm = 0; warm < warmUpPerCase; warm += 1) await probe();
  const cases: HistoryCase[][] = ledgers.map(() => []);
  const caseCount = probes[0]?.length ?? 0;
  for (let at = 0; at < caseCount; at += 1) {
    const timings = await timedInTurn(probes.map((sized) => sized[at]?.probe as Probe));
    for (const [index, sized] of probes.entries()) {
      const { name, door } = sized[at] as (typeof sized)[number];
      cases[index]?.push({ name, door, ...(timings[index] as Timing) });
    }
  }
  for (const [index, ledger] of ledgers.entries()) {
    const sized = cases[index] ?? [];
    const whole = sized.find((measured) => measured.name === "whole range");
    if (whole?.total !== ledger.expected)
      throw new Error(`the whole range's total is ${whole?.total}, not ${ledger.expected}`);
    // Counted up to the cap: the row-by-row count, or the cap when more match.
    const bounded = Math.min(ledger.expectedBounded, amountTotalsCap);
    for (const measured of sized.filter((each) => each.name === "whole range, minAmount 123.45")) {
      if (measured.total !== bounded)
        throw new Error(`${measured.door} whole range over 123.45 totals ${measured.total}, not ${bounded}`);
    }
  }
  return cases;
}

/** One request that answers page 1 of 20 and its total, or throws. */
type Probe = () => Promise<number>;

/** Requests per case in the warm pass before any case is timed (a few in CI's smoke run). */
const warmUpPerCase = process.env["PURSE_BENCH_SMOKE"] ? 2 : 50;

interface Timing {
  readonly p50: number;
  readonly p99: number;
  readonly total: number;
}

/**
 * One case at every size: a few requests each, then `requestsPerCase` rounds of one request to
 * each size in turn, one after the other, the sizes' order reversed every other round (so that no
 * size always follows the same one: an alternation's second phase was the faster, docs/benchmark.md
 * "A phase's place in a round"). Answers each size's p50, p99 and total.
 */
async function timedInTurn(probes: readonly Probe[]): Promise<Timing[]> {
  const totals = probes.map(() => 0);
  for (const [index, probe] of probes.entries())
    for (let warm = 0; warm < 5; warm += 1) totals[index] = await probe();
  const times: number[][] = probes.map(() => []);
  const inOrder = probes.map((_, index) => index);
  const reversed = [...inOrder].reverse();
  for (let request = 0; request < requestsPerCase; request += 1) {
    for (const index of request % 2 === 0 ? inOrder : reversed) {
      const started = performance.now();
      await probes[index]?.();
      times[index]?.push(performance.now() - started);
    }
  }
  return times.map((sizeTimes, index) => {
    sizeTimes.sort((a, b) => a - b);
    const at = (quantile: number) =>
      sizeTimes[Math.min(sizeTimes.length - 1, Math.ceil(quantile * sizeTimes.length) - 1)] ?? 0;
    return { p50: at(0.5), p99: at(0.99), total: totals[index] ?? 0 };
  });
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
