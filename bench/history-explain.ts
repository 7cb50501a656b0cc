import { readFile, stat } from "node:fs/promises";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import pg from "pg";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { growMerchantHistory, merchantToken } from "./history-load.ts";
import { startPurse } from "./purse-process.ts";
import { adminUrl, createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

/**
 * Every statement one history request makes, with its plan as Purse runs it (named, generic, in
 * the request's own transaction), at each size of issue 23's merchant: PostgreSQL's auto_explain
 * is switched on for the scratch database only (ANALYZE, BUFFERS, every statement) while a `purse
 * serve` answers `requests` requests, and the plans it logged for that database are printed with
 * their durations. No guess at which statements a request makes: the server says.
 *
 * `tsx --conditions=source bench/history-explain.ts [sizes] [request path]`, e.g.
 * `10000,1000000 '/api/transactions/histories?startDate=…'`; the default is page 1 of 20 of the
 * last day (today, UTC). `requests` (PURSE_BENCH_EXPLAIN_REQUESTS, 150) sequential requests are
 * timed first without auto_explain. PURSE_BENCH_DATABASE=<name> measures a ledger kept by an
 * earlier run instead of loading one. PostgreSQL's log must be readable (`PURSE_BENCH_PG_LOG`, default Debian's
 * `/var/log/postgresql/postgresql-15-main.log`) and its `log_line_prefix` must name the database
 * (`%d`). PURSE_BENCH_KEEP_DATABASE=1 keeps the ledger for psql.
 */
const sizes = (process.argv[2] ?? "10000,1000000").split(",").map(Number);
const today = new Date().toISOString().slice(0, 10);
const path =
  process.argv[3] ?? `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=20`;
const requests = Number(process.env["PURSE_BENCH_EXPLAIN_REQUESTS"] ?? 150);
const log = process.env["PURSE_BENCH_PG_LOG"] ?? "/var/log/postgresql/postgresql-15-main.log";

const reused = process.env["PURSE_BENCH_DATABASE"];
const database = reused ? existingDatabase(reused) : await createScratchDatabase("purse_explain");
try {
  if (reused) {
    console.log(`# ${reused}, as loaded`);
    await measure();
  } else {
    const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
    await db.migrate();
    await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
    await db.close();
    let loaded = 0;
    for (const size of sizes) {
      const started = performance.now();
      await growMerchantHistory(database, loaded, size);
      loaded = size;
      console.log(
        `# ${size} transactions (loaded in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
      await measure();
    }
  }
} finally {
  if (process.env["PURSE_BENCH_KEEP_DATABASE"] || reused) console.log(`kept database ${database.name}`);
  else await database.drop();
}

/**
 * `requests` sequential requests timed on a plain server, then a few more on one whose every
 * statement auto_explain logs, and the last request's plans printed.
 */
async function measure(): Promise<void> {
  for (const explained of [false, true]) {
    if (explained) await explainEverything(database.name, true);
    const server = await startPurse({
      DATABASE_URL: database.url,
      PURSE_SECRET_KEY: benchSecretKey,
      PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
      PURSE_WEBHOOK_WORKER: "off",
    });
    try {
      const token = await merchantToken(server.url);
      const get = () => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      // Warm: the connections prepare their statements and plan them.
      for (let warm = 0; warm < 10; warm += 1) await (await get()).arrayBuffer();
      const times: number[] = [];
      const logFrom = (await stat(log)).size;
      for (let request = 0; request < (explained ? 5 : requests); request += 1) {
        const at = performance.now();
        const response = await get();
        await response.arrayBuffer();
        times.push(performance.now() - at);
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) =>
        times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]?.toFixed(1);
      if (!explained) console.log(`  ${requests} requests: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
      else console.log(lastRequest((await readFile(log, "utf8")).slice(logFrom), database.name));
    } finally {
      await server.stop();
      if (explained) await explainEverything(database.name, false);
    }
  }
}

/** A database loaded and kept by an earlier run (PURSE_BENCH_KEEP_DATABASE=1). */
function existingDatabase(name: string): ScratchDatabase {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    sql: async (text) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    },
    drop: async () => undefined,
  };
}

/** auto_explain for every statement of the sessions opened from now on, on this database only. */
async function explainEverything(name: string, on: boolean): Promise<void> {
  const settings = on
    ? [
        "session_preload_libraries = 'auto_explain'",
        "auto_explain.log_min_duration = 0",
        "auto_explain.log_analyze = on",
        "auto_explain.log_buffers = on",
        "auto_explain.log_nested_statements = on",
      ]
    : [
        "session_preload_libraries",
        "auto_explain.log_min_duration",
        "auto_explain.log_analyze",
        "auto_explain.log_buffers",
        "auto_explain.log_nested_statements",
      ];
  for (const setting of settings)
    await database.sql(`alter database ${name} ${on ? "set" : "reset"} ${setting}`);
}

/** The last plans logged for this database: the last request's statements. */
function lastRequest(text: string, name: string): string {
  const entries = text.split(/\n(?=\d{4}-\d{2}-\d{2} )/).filter((entry) => entry.includes(`@${name} `));
  const plans = entries.filter((entry) => entry.includes("duration:"));
  const last = plans.slice(-8);
  return last.map((entry) => entry.replace(/^.*?LOG: {2}/, "")).join("\n");
}
