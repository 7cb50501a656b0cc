/**
 * `npm run bench`: in one run on the same PostgreSQL and Redis, Purse's transfers against the bare
 * reference server, pgledger driven by pgbench, and pgbench TPC-B-like; start-up to ready, resident
 * memory under load, and two Purse processes. Writes the figures into docs/benchmark.md (unless
 * PURSE_BENCH_SMOKE is set, as in CI, where it only proves the bench still runs).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { auditLedger, openDatabase } from "@purse/engine";
import { bareSchema } from "./bare-transfer-server.ts";
import { createBenchDatabase } from "./bench-database.ts";
import { benchSecretKey, benchTransfer, merchants } from "./bench-fixture.ts";
import { type ProfileSummary, summariseProfileDetail } from "./cpu-profile-summary.ts";
import { type HistoryFigures, measureHistory, requestsPerCase } from "./history-phase.ts";
import { query } from "./history-probe.ts";
import { drive, type LoadResult, type LoadTarget } from "./load.ts";
import {
  cpuMsOf,
  freePort,
  type PurseProcess,
  postgresCpuBetween,
  postgresCpuMs,
  startPurse,
  writeCallsOf,
} from "./purse-process.ts";
import { describeTail, type RuntimeTail, runtimeTail, sampleRuntime } from "./runtime-tail.ts";
import { createScratchDatabase, pgbench, type ScratchDatabase } from "./scratch-database.ts";

const smoke = Boolean(process.env["PURSE_BENCH_SMOKE"]);
const seconds = Number(process.env["PURSE_BENCH_SECONDS"] ?? (smoke ? 2 : 15));
const connections = Number(process.env["PURSE_BENCH_CONNECTIONS"] ?? 32);
/**
 * Load driven and thrown away before each server is measured (Purse, the bare server, two
 * processes alike): V8 is still compiling Purse's hot path for several seconds after it starts
 * (perf: TurboFan was 16 % of Purse's CPU 4 to 14 s into the load, 1 % 25 to 35 s in), and a
 * server that runs for days is measured warm. Start-up is measured on its own.
 */
const warmUpSeconds = Number(process.env["PURSE_BENCH_WARMUP_SECONDS"] ?? (smoke ? 1 : 10));
const redisUrl = process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const profileDir = process.env["PURSE_BENCH_PROFILE"] ? "/tmp/purse-bench-profile" : undefined;
/**
 * The profiled phase runs the unbundled build: in the bundle every frame's script is one of
 * purse's chunks, so the profile could not say which package a transfer's time went to.
 */
const unbundledPurse = fileURLToPath(new URL("../packages/server/dist/cli/main.js", import.meta.url));
const accounts = 1024;
/** One merchant's history sizes for the history phase (PURSE_BENCH_HISTORY_SIZES, comma-separated). */
const historySizes = (
  process.env["PURSE_BENCH_HISTORY_SIZES"] ?? (smoke ? "1000,10000" : "10000,100000,1000000")
)
  .split(",")
  .map(Number);
/**
 * PURSE_BENCH_ONLY=history runs the history phase alone; token-cache, pool and prepared alternate
 * one setting (PURSE_TOKEN_CACHE_MS, PURSE_DATABASE_POOL_SIZE over PURSE_BENCH_POOL_SIZES,
 * PURSE_DATABASE_PREPARED) in one run; env alternates PURSE_BENCH_VARIABLE over PURSE_BENCH_VALUES
 * (PURSE_BENCH_VARIABLE=settings: each value is space-separated NAME=value pairs set together);
 * bins alternates `purse` commands (PURSE_BENCH_BINS, comma-separated paths to bin/purse.js of
 * built checkouts: before and after one change); purse runs Purse's transfer phase alone; ratio
 * alternates Purse and the bare server (PURSE_BENCH_ROUNDS rounds).
 * PURSE_BENCH_ROUNDS sets the rounds of an alternation (2); PURSE_BENCH_BARE_POOL the bare server's pool (32).
 */
const historyOnly = process.env["PURSE_BENCH_ONLY"] === "history";

function step(text: string): void {
  console.log(`\n▸ ${text}`);
}

function line(label: string, result: LoadResult): string {
  return `${label}: ${result.perSecond.toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms (${result.ok} ok, ${result.refused} refused, ${result.errors} errors)`;
}

async function purseTargets(servers: readonly PurseProcess[], runId: string): Promise<LoadTarget[]> {
  const tokens: string[] = [];
  for (let id = 1; id <= merchants; id += 1) {
    const response = await fetch(`${servers[0]?.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: `bench${id}`,
        client_secret: "bench-secret",
      }),
    });
    tokens.push(((await response.json()) as { access_token: string }).access_token);
  }
  return servers.map((server) => ({
    url: server.url,
    path: "/api/transaction/transfer",
    request(sequence) {
      const transfer = benchTransfer(sequence, runId);
      return {
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[transfer.from]}` },
        body: JSON.stringify(transfer.body),
      };
    },
  }));
}

async function purseDatabase(): Promise<ScratchDatabase> {
  const database = await createBenchDatabase("purse_bench");
  // PURSE_BENCH_WITHOUT_HISTORY_COUNTS=1: the transfer phase without the history counts' trigger
  // (migration 0009; since 0020 it appends deltas), to measure what keeping them costs a transfer
  // (docs/benchmark.md); the audit then reports the counts as breached.
  if (process.env["PURSE_BENCH_WITHOUT_HISTORY_COUNTS"])
    await database.sql("alter table transactions disable trigger history_counts_insert");
  // PURSE_BENCH_WITHOUT_WALLET_DAYS=1: likewise without the wallets' daily nets (migration 0011).
  if (process.env["PURSE_BENCH_WITHOUT_WALLET_DAYS"])
    await database.sql("alter table postings disable trigger wallet_days_insert");
  return database;
}

/** Node 22 needs the flag for AsyncLocalStorage without promise hooks; Node 24 has it and refuses it. */
const nodeOptions = process.versions.node.startsWith("22.")
  ? "--max-old-space-size=256 --experimental-async-context-frame"
  : "--max-old-space-size=256";

function purseEnvironment(database: ScratchDatabase): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
    PURSE_WEBHOOK_WORKER: "off",
    PURSE_REDIS_PREFIX: database.name,
    // As the Dockerfile sets them (docs/deploy.md, "Memory" and "Node's AsyncLocalStorage").
    MALLOC_MMAP_THRESHOLD_: "1048576",
    NODE_OPTIONS: nodeOptions,
  };
}

interface Figures {
  purse: LoadResult;
  readyAfterMs: number;
  peakRssMb: number;
  /** Purse's CPU time (all threads) per answered transfer during the load, in ms. */
  cpuPerTransferMs: number;
  /** PostgreSQL's CPU time (every process) per answered transfer during the same load, in ms. */
  postgresCpuPerTransferMs: number;
  /** Purse's write system calls per answered transfer (its socket writes). */
  writesPerTransfer: number;
  /** The process's own stalls during the load: GC pauses and event-loop delay. */
  tail: RuntimeTail;
  audit: string;
  twoProcesses: LoadResult;
  bare: LoadResult & { writesPerTransfer: number };
  pgledger: number | string;
  tpcb: number | string;
  profile: ProfileSummary;
}

async function measurePurse(
  extraEnv: Record<string, string> = {},
  bin?: string,
): Promise<
  Pick<
    Figures,
    | "purse"
    | "readyAfterMs"
    | "peakRssMb"
    | "cpuPerTransferMs"
    | "postgresCpuPerTransferMs"
    | "writesPerTransfer"
    | "tail"
    | "audit"
  >
> {
  step("Purse: one process, POST /api/transaction/transfer with payment_id");
  const database = await purseDatabase();
  try {
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
    const server = await startPurse({ ...purseEnvironment(database), ...extraEnv }, profileDir, bin);
    console.log(`  ready after ${server.readyAfterMs.toFixed(0)} ms`);
    let purse: LoadResult;
    // Purse's own CPU per answered request: far less sensitive to other work on the machine than
    // the rate, which is what it is compared by in the alternating phases.
    let cpuPerTransferMs = 0;
    let postgresCpuPerTransferMs = 0;
    let writesPerTransfer = 0;
    let tail: RuntimeTail;
    try {
      const targets = await purseTargets([server], randomBytes(3).toString("hex"));
      await drive(targets, connections, warmUpSeconds); // pools, JIT, prepared statements
      server.sampleMemory();
      const cpuBefore = await server.cpuMs();
      const postgresBefore = await postgresCpuMs();
      const writesBefore = await writeCallsOf(server.pid);
      const phaseStart = await databaseClock(database.url);
      const runtimeBefore = await sampleRuntime(server.url);
      purse = await drive(targets, connections, seconds);
      const answered = Math.max(1, purse.ok + purse.refused);
      tail = runtimeTail(runtimeBefore, await sampleRuntime(server.url), answered);
      cpuPerTransferMs = ((await server.cpuMs()) - cpuBefore) / answered;
      writesPerTransfer = ((await writeCallsOf(server.pid)) - writesBefore) / answered;
      postgresCpuPerTransferMs = postgresCpuBetween(postgresBefore, await postgresCpuMs()) / answered;
      console.log(
        `  ${line("transfers", purse)}; peak RSS ${server.peakRssMb().toFixed(0)} MB; Purse CPU ${cpuPerTransferMs.toFixed(2)} ms, PostgreSQL CPU ${postgresCpuPerTransferMs.toFixed(2)} ms, ${writesPerTransfer.toFixed(1)} write calls per transfer, ${(await transfersPerCommit(database.url, phaseStart)).toFixed(1)} transfers per COMMIT`,
      );
      console.log(`  Purse's own stalls: ${describeTail(tail)}`);
    } finally {
      await server.stop();
    }
    const auditDb = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 1 });
    const report = await auditLedger(auditDb);
    await auditDb.close();
    const audit = report.ok ? `balanced (${report.transactions} transactions)` : "BREACHED";
    console.log(`  ledger ${audit}`);
    if (!report.ok) process.exitCode = 1;
    return {
      purse,
      readyAfterMs: server.readyAfterMs,
      peakRssMb: server.peakRssMb(),
      cpuPerTransferMs,
      postgresCpuPerTransferMs,
      writesPerTransfer,
      tail,
      audit,
    };
  } finally {
    await database.drop();
  }
}

/**
 * Where a warm Purse's CPU goes: the same load on a server of its own under `--cpu-prof`, after the
 * same warm-up. Its rate is not reported: the profiler slows the server it watches.
 */
async function profileTransfers(): Promise<ProfileSummary> {
  step("Purse under the CPU profiler: where a transfer's time goes (this phase's rate is not used)");
  const directory = await mkdtemp(join(tmpdir(), "purse-bench-profile-"));
  const database = await purseDatabase();
  try {
    const bin = existsSync(unbundledPurse) ? unbundledPurse : undefined;
    const server = await startPurse(purseEnvironment(database), directory, bin);
    try {
      const targets = await purseTargets([server], randomBytes(3).toString("hex"));
      await drive(targets, connections, warmUpSeconds);
      await drive(targets, connections, seconds);
    } finally {
      await server.stop(); // the profile is written as the process exits
    }
    const summary = await summariseProfileDetail(directory, 8);
    console.log(`  ${summary.packages.join("\n  ")}`);
    return summary;
  } finally {
    await database.drop();
    await rm(directory, { recursive: true, force: true });
  }
}

async function measureTwoProcesses(): Promise<LoadResult> {
  step("Purse: two processes on one PostgreSQL and Redis, the load split between them");
  const database = await purseDatabase();
  const servers = await Promise.all([
    startPurse(purseEnvironment(database)),
    startPurse(purseEnvironment(database)),
  ]);
  try {
    const targets = await purseTargets(servers, randomBytes(3).toString("hex"));
    await drive(targets, connections, warmUpSeconds);
    const result = await drive(targets, connections, seconds);
    console.log(`  ${line("transfers", result)}`);
    return result;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  }
}

async function measureBare(): Promise<LoadResult & { writesPerTransfer: number }> {
  step("Bare reference: node:http + pg + raw SQL, one transaction per transfer, no auth, no Redis");
  const database = await createScratchDatabase("purse_bare");
  await database.sql(bareSchema);
  await database.sql(`insert into accounts select n, 100000000 from generate_series(1, ${accounts}) n`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(new URL("./bare-transfer-server.ts", import.meta.url)),
      database.url,
      String(port),
      process.env["PURSE_BENCH_BARE_POOL"] ?? "32",
    ],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`the bare server exited with ${code}`)));
    });
    const target: LoadTarget = {
      url: `http://127.0.0.1:${port}`,
      path: "/transfer",
      request(sequence) {
        const from = 1 + (sequence % accounts);
        const to = 1 + ((from + (sequence % (accounts - 1))) % accounts);
        return {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ from, to, amount: 100 }),
        };
      },
    };
    await drive([target], connections, warmUpSeconds);
    const cpuBefore = await cpuMsOf(child.pid);
    const postgresBefore = await postgresCpuMs();
    const writesBefore = await writeCallsOf(child.pid);
    const result = await drive([target], connections, seconds);
    const answered = Math.max(1, result.ok + result.refused);
    const cpuPerTransfer = ((await cpuMsOf(child.pid)) - cpuBefore) / answered;
    const writesPerTransfer = ((await writeCallsOf(child.pid)) - writesBefore) / answered;
    const postgresPerTransfer = postgresCpuBetween(postgresBefore, await postgresCpuMs()) / answered;
    console.log(
      `  ${line("transfers", result)}; bare server CPU ${cpuPerTransfer.toFixed(2)} ms, PostgreSQL CPU ${postgresPerTransfer.toFixed(2)} ms, ${writesPerTransfer.toFixed(1)} write calls per transfer`,
    );
    return { ...result, writesPerTransfer };
  } finally {
    child.kill("SIGTERM");
    await database.drop();
  }
}

async function measurePgledger(): Promise<number | string> {
  step(
    `pgledger (bench/pgledger, unmodified): pgledger_create_transfer driven by pgbench, ${connections} clients`,
  );
  const database = await createScratchDatabase("purse_pgledger");
  try {
    for (const file of [
      "vendor/scoville-pgsql-ulid/ulid-to-uuid.sql",
      "vendor/scoville-pgsql-ulid/uuid-to-ulid.sql",
      "pgledger.sql",
    ]) {
      await database.sql(await readFile(new URL(`./pgledger/${file}`, import.meta.url), "utf8"));
    }
    await database.sql(`
      create table bench_accounts (n int primary key, id text not null);
      insert into bench_accounts select n, (select id from pgledger_create_account('bench ' || n, 'USD'))
        from generate_series(1, ${accounts}) n;`);
    const script = `/tmp/purse-pgledger-${database.name}.sql`;
    await writeFile(
      script,
      [
        `\\set a random(1, ${accounts})`,
        `\\set b 1 + (:a + random(0, ${accounts - 2})) % ${accounts}`,
        "select id from pgledger_create_transfer((select id from bench_accounts where n = :a), (select id from bench_accounts where n = :b), 1.00);",
      ].join("\n"),
    );
    const tps = pgbench([
      "-n",
      "-c",
      String(connections),
      "-j",
      "2",
      "-M",
      "prepared",
      "-T",
      String(seconds),
      "-f",
      script,
      database.name,
    ]);
    await rm(script, { force: true });
    console.log(`  ${tps} transfers/s`);
    return tps;
  } finally {
    await database.drop();
  }
}

async function measureTpcb(): Promise<number | string> {
  step("pgbench TPC-B-like (scale 10, 16 clients, prepared): the machine's ceiling");
  const database = await createScratchDatabase("purse_pgbench");
  try {
    const initialised = pgbench(["-i", "-s", "10", "-q", database.name]);
    if (typeof initialised === "string" && !initialised.startsWith("no tps")) return initialised;
    const tps = pgbench(["-c", "16", "-j", "2", "-M", "prepared", "-T", String(seconds), database.name]);
    console.log(`  ${tps} tps`);
    return tps;
  } finally {
    await database.drop();
  }
}

function ratio(part: number, whole: number | string): string {
  return typeof whole === "number" && whole > 0 ? (part / whole).toFixed(2) : "n/a";
}

function report(figures: Figures): string {
  const { purse, bare, twoProcesses } = figures;
  const rate = (value: number | string) =>
    typeof value === "number" ? `${value.toFixed(0)}/s` : `not measured: ${value}`;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)}, one run, ${connections} connections, ${seconds} s per phase after ${warmUpSeconds} s of load thrown away, everything on this machine's cores:`,
    "",
    "| measure | figure | target |",
    "|---|---|---|",
    `| Purse transfers (with payment_id) | ${purse.perSecond.toFixed(0)}/s, p50 ${purse.p50} ms, p99 ${purse.p99} ms, ${purse.refused} refused, ${purse.errors} errors | |`,
    `| bare server (node:http + pg) | ${bare.perSecond.toFixed(0)}/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms | |`,
    `| pgledger via pgbench | ${rate(figures.pgledger)} | |`,
    `| pgbench TPC-B-like | ${typeof figures.tpcb === "number" ? `${figures.tpcb.toFixed(0)} tps` : figures.tpcb} | |`,
    `| Purse / bare | ${ratio(purse.perSecond, bare.perSecond)} | ≥ 0.6 |`,
    `| Purse p99 / bare p99 | ${ratio(purse.p99, bare.p99)} | ≤ 1.5 |`,
    `| Purse / pgledger | ${ratio(purse.perSecond, figures.pgledger)} | |`,
    `| two Purse processes | ${twoProcesses.perSecond.toFixed(0)}/s, p99 ${twoProcesses.p99} ms | overhead on 2 cores, not a gain |`,
    `| start-up to /readyz 200 (migrated PostgreSQL) | ${figures.readyAfterMs.toFixed(0)} ms | < 1 500 ms |`,
    `| Purse peak RSS under load | ${figures.peakRssMb.toFixed(0)} MB | < 250 MB |`,
    `| Purse CPU per transfer (all threads) | ${figures.cpuPerTransferMs.toFixed(2)} ms | |`,
    `| PostgreSQL CPU per Purse transfer (every process) | ${figures.postgresCpuPerTransferMs.toFixed(2)} ms | |`,
    `| write system calls per transfer: Purse, bare server | ${figures.writesPerTransfer.toFixed(1)}, ${bare.writesPerTransfer.toFixed(1)} | |`,
    `| Purse's own stalls under load | ${describeTail(figures.tail)} | |`,
    `| ledger after the run | ${figures.audit} | balanced |`,
    "",
    `Where a warm Purse's CPU went, from \`--cpu-prof\` of an unbundled server in a phase of its own (same load and warm-up; ${figures.profile.self[0]}). V8 samples the wall clock, so a thread descheduled just after a socket write is charged to \`writev\`; \`perf\` puts the TCP send path nearer 10 % (section "Two round trips per transfer").`,
    "",
    "| self time by package | heaviest functions, self time |",
    "|---|---|",
    ...figures.profile.packages.map(
      (entry, index) => `| ${entry} | ${figures.profile.self[index + 1] ?? ""} |`,
    ),
  ].join("\n");
}

async function writeResults(text: string): Promise<void> {
  const path = new URL("../docs/benchmark.md", import.meta.url);
  const document = await readFile(path, "utf8");
  const start = "<!-- bench:results -->";
  const end = "<!-- /bench:results -->";
  const block = `${start}\n${text}\n${end}`;
  const next = document.includes(start)
    ? document.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block)
    : `${document.trimEnd()}\n\n## Latest run\n\n${block}\n`;
  await writeFile(path, next);
}

function historyReport(history: HistoryFigures): string {
  const first = history.sizes[0];
  const names = first ? first.cases.map((measured) => `${measured.door} ${measured.name}`) : [];
  // Each case's p99 against its own at the first size: what must stay flat (issue 23: at most 1.5).
  const cell = (size: HistoryFigures["sizes"][number], name: string) => {
    const measured = size.cases.find((other) => `${other.door} ${other.name}` === name);
    const base = first?.cases.find((other) => `${other.door} ${other.name}` === name);
    if (!measured || !base) return "";
    return `${measured.p99.toFixed(1)} ms (${(measured.p99 / Math.max(0.1, base.p99)).toFixed(2)}×), total ${measured.total.toLocaleString("en")}`;
  };
  return [
    "",
    `History as a merchant grows: one merchant, a transaction every 30 s going back in time; page 1 of 20 and its exact total, ${requestsPerCase} sequential requests per case; p99 and its ratio to the first size:`,
    "",
    `| case | ${history.sizes.map((size) => `${size.transactions.toLocaleString("en")} (loaded in ${(size.loadMs / 1000).toFixed(0)} s)`).join(" | ")} |`,
    `|---|${history.sizes.map(() => "---").join("|")}|`,
    ...names.map((name) => `| ${name} | ${history.sizes.map((size) => cell(size, name)).join(" | ")} |`),
    "",
    `Ledger after loading: ${history.audit}. EXPLAIN (ANALYZE, BUFFERS) at the largest size, whole range: the count as it ran before the daily counts,`,
    "",
    "```",
    history.explainBefore,
    "```",
    "",
    "the count now,",
    "",
    "```",
    history.explainCount,
    "```",
    "",
    "the count under amount bounds (minAmount 123.45, counted up to the cap),",
    "",
    "```",
    history.explainAmountCount,
    "```",
    "",
    "and the page now:",
    "",
    "```",
    history.explainPage,
    "```",
  ].join("\n");
}

/**
 * One setting's values measured in the same run, alternating (a, b, c, a, b, c), so the machine's
 * changing load falls on every value alike; each figure is printed with the load average then.
 */
/** The environment one alternated value sets: the variable, or with `settings` several at once. */
function settingsOf(variable: string, value: string): Record<string, string> {
  if (variable !== "settings") return { [variable]: value };
  return Object.fromEntries(
    value
      .split(" ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
}

async function alternate(
  variable: string,
  values: readonly string[],
  rounds = Number(process.env["PURSE_BENCH_ROUNDS"] ?? 2),
): Promise<void> {
  const results = new Map<string, string[]>();
  for (let round = 1; round <= rounds; round += 1) {
    for (const value of values) {
      // PURSE_BENCH_BIN alternates `purse` commands (two checkouts' builds), other variables the environment.
      const {
        purse,
        peakRssMb,
        readyAfterMs,
        cpuPerTransferMs,
        postgresCpuPerTransferMs,
        writesPerTransfer,
        tail,
      } =
        variable === "PURSE_BENCH_BIN"
          ? await measurePurse({}, value)
          : await measurePurse(settingsOf(variable, value));
      const load = loadavg()[0]?.toFixed(1);
      const figure = `${purse.perSecond.toFixed(0)}/s, CPU ${cpuPerTransferMs.toFixed(2)} ms/transfer (PostgreSQL ${postgresCpuPerTransferMs.toFixed(2)} ms), ${writesPerTransfer.toFixed(1)} writes/transfer, p50 ${purse.p50} ms, p99 ${purse.p99} ms, ready ${readyAfterMs.toFixed(0)} ms, RSS ${peakRssMb.toFixed(0)} MB, ${describeTail(tail)} (load ${load})`;
      console.log(`  round ${round}, ${variable}=${value}: ${figure}`);
      results.set(value, [...(results.get(value) ?? []), figure]);
    }
  }
  console.log(`\n${variable}:`);
  for (const [value, figures] of results) console.log(`  ${value}: ${figures.join("; ")}`);
}

const only = process.env["PURSE_BENCH_ONLY"];
if (only === "token-cache") {
  // The token cache off (every request looks its token up) and on.
  await alternate("PURSE_TOKEN_CACHE_MS", ["0", "1000"]);
} else if (only === "pool") {
  await alternate(
    "PURSE_DATABASE_POOL_SIZE",
    (process.env["PURSE_BENCH_POOL_SIZES"] ?? "8,16,32").split(","),
  );
} else if (only === "prepared") {
  // The hot statements unnamed (parsed and planned on every call) and named.
  await alternate("PURSE_DATABASE_PREPARED", ["off", "on"]);
} else if (only === "bins") {
  // Two builds of Purse (say, before and after one change, each checkout built), alternated.
  await alternate("PURSE_BENCH_BIN", (process.env["PURSE_BENCH_BINS"] ?? "").split(","));
} else if (only === "env") {
  // Any one setting: PURSE_BENCH_VARIABLE over PURSE_BENCH_VALUES.
  await alternate(
    process.env["PURSE_BENCH_VARIABLE"] ?? "",
    (process.env["PURSE_BENCH_VALUES"] ?? "").split(","),
  );
} else if (only === "ratio") {
  // Purse and the bare server alternated (Purse, bare, Purse, bare...): their ratio in each round
  // compares phases run a minute apart, not a whole bench apart.
  const rounds = Number(process.env["PURSE_BENCH_ROUNDS"] ?? 2);
  for (let round = 1; round <= rounds; round += 1) {
    const { purse, readyAfterMs, cpuPerTransferMs } = await measurePurse();
    const purseLoad = loadavg()[0]?.toFixed(1);
    const bare = await measureBare();
    console.log(
      `  round ${round}: Purse ${purse.perSecond.toFixed(0)}/s p50 ${purse.p50} ms p99 ${purse.p99} ms, CPU ${cpuPerTransferMs.toFixed(2)} ms/transfer, ready ${readyAfterMs.toFixed(0)} ms (load ${purseLoad}); bare ${bare.perSecond.toFixed(0)}/s p99 ${bare.p99} ms (load ${loadavg()[0]?.toFixed(1)}); Purse / bare ${ratio(purse.perSecond, bare.perSecond)}, p99 ${ratio(purse.p99, bare.p99)}×`,
    );
  }
} else if (only === "purse") {
  // Purse's transfer phase alone (with PURSE_BENCH_PROFILE=1, where its CPU went).
  const { purse, readyAfterMs } = await measurePurse();
  console.log(
    `  ${line("transfers", purse)}; ready after ${readyAfterMs.toFixed(0)} ms (load ${loadavg()[0]?.toFixed(1)})`,
  );
  if (profileDir) {
    const summary = await summariseProfileDetail(profileDir, 25);
    console.log(`self:\n  ${summary.self.join("\n  ")}`);
    console.log(`inclusive:\n  ${summary.inclusive.join("\n  ")}`);
    console.log(`packages (self):\n  ${summary.packages.join("\n  ")}`);
  }
} else if (historyOnly) {
  step(`History as a merchant grows: ${historySizes.join(", ")} transactions of its own`);
  const history = await measureHistory(historySizes, purseEnvironment);
  console.log(historyReport(history));
} else {
  const purse = await measurePurse();
  const profile = await profileTransfers();
  const twoProcesses = await measureTwoProcesses();
  const bare = await measureBare();
  const pgledger = await measurePgledger();
  const tpcb = await measureTpcb();
  step(`History as a merchant grows: ${historySizes.join(", ")} transactions of its own`);
  const history = await measureHistory(historySizes, purseEnvironment);
  const text = `${report({ ...purse, profile, twoProcesses, bare, pgledger, tpcb })}\n${historyReport(history)}`;
  console.log(`\n${text}`);
  if (!smoke) await writeResults(text);
}

/** The database's clock (`clock_timestamp()`), as text: where a phase's rows begin. */
async function databaseClock(url: string): Promise<string> {
  const [row] = await query<{ now: string }>(url, "select clock_timestamp()::text as now", []);
  return row?.now ?? "infinity";
}

/**
 * How many transfers one COMMIT carried since `from` (group commit, ledger/movement-batch.ts): the
 * rows of one transaction share its start time (`now()`), so distinct times count transactions.
 */
async function transfersPerCommit(url: string, from: string): Promise<number> {
  const [row] = await query<{ transfers: number; commits: number }>(
    url,
    `select count(*)::int as transfers, count(distinct created_at)::int as commits
     from transactions where created_at >= $1::timestamptz`,
    [from],
  );
  return (row?.transfers ?? 0) / Math.max(1, row?.commits ?? 0);
}
