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
import { benchSecretKey, benchTransfer, merchants, type TransferCase } from "./bench-fixture.ts";
import {
  type Figures,
  type PgbenchPhase,
  type Phase,
  type PursePhase,
  ratio,
  report,
} from "./bench-report.ts";
import { type ProfileSummary, summariseProfileDetail } from "./cpu-profile-summary.ts";
import { type HistoryFigures, measureHistory, requestsPerCase } from "./history-phase.ts";
import { query } from "./history-probe.ts";
import { drive, type LoadResult, type LoadTarget } from "./load.ts";
import { cpuPerTransfer, describeCpu, readCpu } from "./process-cpu.ts";
import { freePort, type PurseProcess, startPurse, writeCallsOf } from "./purse-process.ts";
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
 * two-processes runs the two-process phase for each build of PURSE_BENCH_BINS in turn.
 * bins alternates `purse` commands (PURSE_BENCH_BINS, comma-separated paths to bin/purse.js of
 * built checkouts: before and after one change); purse runs Purse's transfer phase alone; ratio
 * alternates Purse and the bare server (PURSE_BENCH_ROUNDS rounds; PURSE_BENCH_AGAINST=pgledger: Purse and
 * pgledger).
 * PURSE_BENCH_LOG_LEVEL runs Purse at that LOG_LEVEL (silent when absent; bench/purse-process.ts).
 * PURSE_BENCH_NODE_ARGS gives `purse serve` Node's (and V8's) flags, space-separated; as
 * PURSE_BENCH_VARIABLE, env alternates them.
 * PURSE_BENCH_ROUNDS sets the rounds of an alternation (2), each round in the reverse order of the
 * one before (`inRoundOrder`); PURSE_BENCH_BARE_POOL the bare server's pool (32);
 * PURSE_BENCH_CASE=hot runs an alternation's transfers into one hot wallet (bench-fixture.ts) instead of spread.
 */
const historyOnly = process.env["PURSE_BENCH_ONLY"] === "history";
const alternationCase: TransferCase = process.env["PURSE_BENCH_CASE"] === "hot" ? "hot" : "spread";

function step(text: string): void {
  console.log(`\n▸ ${text}`);
}

function line(label: string, result: LoadResult): string {
  return `${label}: ${result.perSecond.toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms (${result.ok} ok, ${result.refused} refused, ${result.errors} errors)`;
}

async function purseTargets(
  servers: readonly PurseProcess[],
  runId: string,
  transferCase: TransferCase = "spread",
): Promise<LoadTarget[]> {
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
      const transfer = benchTransfer(sequence, runId, transferCase);
      return {
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[transfer.from]}` },
        body: JSON.stringify(transfer.body),
      };
    },
  }));
}

async function purseDatabase(): Promise<ScratchDatabase> {
  // PURSE_BENCH_WITHOUT_HISTORY_COUNTS and PURSE_BENCH_WITHOUT_WALLET_DAYS went with migration 0021:
  // the counters' deltas are part of the movement's own statement now, no trigger to disable.
  return createBenchDatabase("purse_bench");
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

async function measurePurse(
  extraEnv: Record<string, string> = {},
  bin?: string,
  transferCase: TransferCase = "spread",
): Promise<PursePhase> {
  step(`Purse: one process, POST /api/transaction/transfer with payment_id, ${describeCase(transferCase)}`);
  const database = await purseDatabase();
  try {
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
    const server = await startPurse({ ...purseEnvironment(database), ...extraEnv }, profileDir, bin);
    console.log(`  ready after ${server.readyAfterMs.toFixed(0)} ms`);
    let purse: Phase;
    let writesPerTransfer = 0;
    let tail: RuntimeTail;
    try {
      const targets = await purseTargets([server], randomBytes(3).toString("hex"), transferCase);
      await drive(targets, connections, warmUpSeconds); // pools, JIT, prepared statements
      server.sampleMemory();
      // Purse's own CPU per answered request is far less sensitive to other work on the machine
      // than the rate, which is what the alternating phases compare it by.
      const cpuBefore = await readCpu(server.pid);
      const writesBefore = await writeCallsOf(server.pid);
      const phaseStart = await databaseClock(database.url);
      const runtimeBefore = await sampleRuntime(server.url);
      const load = await drive(targets, connections, seconds);
      const answered = load.ok + load.refused;
      purse = { ...load, cpu: cpuPerTransfer(cpuBefore, await readCpu(server.pid), answered) };
      tail = runtimeTail(runtimeBefore, await sampleRuntime(server.url), Math.max(1, answered));
      writesPerTransfer = ((await writeCallsOf(server.pid)) - writesBefore) / Math.max(1, answered);
      console.log(
        `  ${line("transfers", purse)}; peak RSS ${server.peakRssMb().toFixed(0)} MB; ${describeCpu(purse.cpu, "Purse")}; ${writesPerTransfer.toFixed(1)} Purse write calls per transfer, ${(await transfersPerCommit(database.url, phaseStart)).toFixed(1)} transfers per COMMIT`,
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

async function measureTwoProcesses(bin?: string): Promise<LoadResult> {
  step("Purse: two processes on one PostgreSQL and Redis, the load split between them");
  const database = await purseDatabase();
  const servers = await Promise.all([
    startPurse(purseEnvironment(database), undefined, bin),
    startPurse(purseEnvironment(database), undefined, bin),
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

async function measureBare(
  transferCase: TransferCase = "spread",
): Promise<Phase & { writesPerTransfer: number }> {
  step(
    `Bare reference: node:http + pg + raw SQL, one transaction per transfer, no auth, no Redis, ${describeCase(transferCase)}`,
  );
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
        const { from, to } = accountPair(sequence, transferCase);
        return {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ from, to, amount: 100 }),
        };
      },
    };
    await drive([target], connections, warmUpSeconds);
    const cpuBefore = await readCpu(child.pid);
    const writesBefore = await writeCallsOf(child.pid);
    const result = await drive([target], connections, seconds);
    const answered = result.ok + result.refused;
    const cpu = cpuPerTransfer(cpuBefore, await readCpu(child.pid), answered);
    const writesPerTransfer = ((await writeCallsOf(child.pid)) - writesBefore) / Math.max(1, answered);
    console.log(
      `  ${line("transfers", result)}; ${describeCpu(cpu, "bare server")}; ${writesPerTransfer.toFixed(1)} bare server write calls per transfer`,
    );
    return { ...result, cpu, writesPerTransfer };
  } finally {
    child.kill("SIGTERM");
    await database.drop();
  }
}

async function measurePgledger(transferCase: TransferCase = "spread"): Promise<PgbenchPhase> {
  step(
    `pgledger (bench/pgledger, unmodified): pgledger_create_transfer driven by pgbench, ${connections} clients, ${describeCase(transferCase)}`,
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
        // The same pairs as the bare server's (accountPair): spread, or every payer into account 1.
        ...(transferCase === "hot"
          ? [`\\set a random(2, ${accounts})`, "\\set b 1"]
          : [
              `\\set a random(1, ${accounts})`,
              `\\set b 1 + (:a + random(0, ${accounts - 2})) % ${accounts}`,
            ]),
        "select id from pgledger_create_transfer((select id from bench_accounts where n = :a), (select id from bench_accounts where n = :b), 1.00);",
      ].join("\n"),
    );
    const run = await measuredPgbench(
      ["-n", "-c", String(connections), "-j", "2", "-M", "prepared"],
      ["-f", script, database.name],
    );
    await rm(script, { force: true });
    console.log(`  ${describePgbench(run, "transfers/s")}`);
    return run;
  } finally {
    await database.drop();
  }
}

async function measureTpcb(): Promise<PgbenchPhase> {
  step("pgbench TPC-B-like (scale 10, 16 clients, prepared): the machine's ceiling");
  const database = await createScratchDatabase("purse_pgbench");
  try {
    const initialised = pgbench(["-i", "-s", "10", "-q", database.name]);
    if (typeof initialised === "string" && !initialised.startsWith("no tps")) return initialised;
    const run = await measuredPgbench(["-c", "16", "-j", "2", "-M", "prepared"], [database.name]);
    console.log(`  ${describePgbench(run, "tps")}`);
    return run;
  } finally {
    await database.drop();
  }
}

/**
 * pgbench for `warmUpSeconds` (thrown away, as every stack's first seconds are), then for `seconds`
 * with every process's CPU read around it: pgbench is the load generator, a child of this process.
 */
async function measuredPgbench(options: readonly string[], target: readonly string[]): Promise<PgbenchPhase> {
  if (warmUpSeconds > 0) pgbench([...options, "-T", String(warmUpSeconds), ...target]);
  const before = await readCpu();
  const run = pgbench([...options, "-T", String(seconds), ...target]);
  if (typeof run === "string") return run;
  return { ...run, cpu: cpuPerTransfer(before, await readCpu(), run.transactions) };
}

function describePgbench(run: PgbenchPhase, unit: string): string {
  return typeof run === "string"
    ? run
    : `${run.tps.toFixed(0)} ${unit}; ${describeCpu(run.cpu, "no server")}`;
}

/** The bare server's and pgledger's accounts a transfer moves between (1 to `accounts`). */
function accountPair(sequence: number, transferCase: TransferCase): { from: number; to: number } {
  if (transferCase === "hot") return { from: 2 + (sequence % (accounts - 1)), to: 1 };
  const from = 1 + (sequence % accounts);
  return { from, to: 1 + ((from + (sequence % (accounts - 1))) % accounts) };
}

function describeCase(transferCase: TransferCase): string {
  return transferCase === "hot" ? "hot wallet (every payer into one wallet)" : "spread wallets";
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
  // The p50 beside it: on two busy cores a few garbage-collector pauses (4 to 15 ms) decide a p99
  // of 500 requests, at any size; a query that grew with the ledger moves the p50 too.
  const cell = (size: HistoryFigures["sizes"][number], name: string) => {
    const measured = size.cases.find((other) => `${other.door} ${other.name}` === name);
    const base = first?.cases.find((other) => `${other.door} ${other.name}` === name);
    if (!measured || !base) return "";
    const against = (now: number, then: number) => `${(now / Math.max(0.1, then)).toFixed(2)}×`;
    return `${measured.p99.toFixed(1)} ms (${against(measured.p99, base.p99)}), p50 ${measured.p50.toFixed(1)} ms (${against(measured.p50, base.p50)}), total ${measured.total.toLocaleString("en")}`;
  };
  return [
    "",
    `History as a merchant grows: one merchant, a transaction every 30 s going back in time; page 1 of 20 and its exact total, ${requestsPerCase} sequential requests per case; p99 and p50, each with its ratio to the first size:`,
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

/**
 * The values in the order a round measures them: as given in odd rounds, reversed in even ones.
 * With one order for every round the phase measured last in a round read up to a fifth faster
 * whichever it was (docs/benchmark.md, "One scan for both capped totals"), so a fixed order
 * favoured one side; reversed every other round, that place is shared.
 */
function inRoundOrder<Value>(values: readonly Value[], round: number): readonly Value[] {
  return round % 2 === 1 ? values : [...values].reverse();
}

async function alternate(
  variable: string,
  values: readonly string[],
  rounds = Number(process.env["PURSE_BENCH_ROUNDS"] ?? 2),
): Promise<void> {
  const results = new Map<string, string[]>();
  for (let round = 1; round <= rounds; round += 1) {
    for (const value of inRoundOrder(values, round)) {
      // PURSE_BENCH_BIN alternates `purse` commands (two checkouts' builds), other variables the environment.
      const { purse, peakRssMb, readyAfterMs, writesPerTransfer, tail } =
        variable === "PURSE_BENCH_BIN"
          ? await measurePurse({}, value, alternationCase)
          : await measurePurse(settingsOf(variable, value), undefined, alternationCase);
      const load = loadavg()[0]?.toFixed(1);
      const figure = `${purse.perSecond.toFixed(0)}/s, ${describeCpu(purse.cpu, "Purse")}, ${writesPerTransfer.toFixed(1)} writes/transfer, p50 ${purse.p50} ms, p99 ${purse.p99} ms, ready ${readyAfterMs.toFixed(0)} ms, RSS ${peakRssMb.toFixed(0)} MB, ${describeTail(tail)} (load ${load})`;
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
} else if (only === "two-processes") {
  // The two-process phase for each build of PURSE_BENCH_BINS in turn, PURSE_BENCH_ROUNDS times.
  for (let round = 1; round <= Number(process.env["PURSE_BENCH_ROUNDS"] ?? 2); round += 1)
    for (const bin of inRoundOrder((process.env["PURSE_BENCH_BINS"] ?? "").split(","), round)) {
      const result = await measureTwoProcesses(bin);
      console.log(
        `  round ${round}, ${bin}: ${line("transfers", result)} (load ${loadavg()[0]?.toFixed(1)})`,
      );
    }
} else if (only === "env") {
  // Any one setting: PURSE_BENCH_VARIABLE over PURSE_BENCH_VALUES.
  await alternate(
    process.env["PURSE_BENCH_VARIABLE"] ?? "",
    (process.env["PURSE_BENCH_VALUES"] ?? "").split(","),
  );
} else if (only === "ratio") {
  // Purse and the bare server (or pgledger) alternated, Purse first in odd rounds and second in
  // even ones (`inRoundOrder`): their ratio in each round compares phases run a minute apart, not
  // a whole bench apart.
  const rounds = Number(process.env["PURSE_BENCH_ROUNDS"] ?? 2);
  const againstPgledger = process.env["PURSE_BENCH_AGAINST"] === "pgledger";
  for (let round = 1; round <= rounds; round += 1) {
    const purseFirst = inRoundOrder(["Purse", "other"], round)[0] === "Purse";
    const order = purseFirst ? "Purse first" : `${againstPgledger ? "pgledger" : "bare"} first`;
    const measuredPurse = async () => ({
      ...(await measurePurse({}, undefined, alternationCase)),
      load: loadavg()[0]?.toFixed(1),
    });
    const measuredOther = async () => {
      const measured = againstPgledger
        ? { kind: "pgledger" as const, pgledger: await measurePgledger(alternationCase) }
        : { kind: "bare" as const, bare: await measureBare(alternationCase) };
      return { ...measured, load: loadavg()[0]?.toFixed(1) };
    };
    const otherFirst = purseFirst ? undefined : await measuredOther();
    const { purse, readyAfterMs, load } = await measuredPurse();
    const other = otherFirst ?? (await measuredOther());
    const purseFigures = `round ${round} (${order}): Purse ${purse.perSecond.toFixed(0)}/s p50 ${purse.p50} ms p99 ${purse.p99} ms, ${describeCpu(purse.cpu, "Purse")}, ready ${readyAfterMs.toFixed(0)} ms (load ${load})`;
    if (other.kind === "pgledger") {
      const { pgledger } = other;
      const against =
        typeof pgledger === "string"
          ? `pgledger: ${pgledger}`
          : `pgledger ${pgledger.tps.toFixed(0)}/s (load ${other.load}); Purse / pgledger ${ratio(purse.perSecond, pgledger.tps)}`;
      console.log(`  ${purseFigures}; ${against}`);
      continue;
    }
    const { bare } = other;
    console.log(
      `  ${purseFigures}; bare ${bare.perSecond.toFixed(0)}/s p99 ${bare.p99} ms (load ${other.load}); Purse / bare ${ratio(purse.perSecond, bare.perSecond)}, p99 ${ratio(purse.p99, bare.p99)}×`,
    );
  }
} else if (only === "purse") {
  // Purse's transfer phase alone (with PURSE_BENCH_PROFILE=1, where its CPU went: then from the
  // unbundled build, as profileTransfers runs it, so that frames name their package).
  const profiledBin = profileDir && existsSync(unbundledPurse) ? unbundledPurse : undefined;
  const { purse, readyAfterMs } = await measurePurse({}, profiledBin);
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
  // Each stack's spread and hot-wallet cases side by side, so the machine's drift falls on both alike.
  const purse = await measurePurse();
  const purseHot = await measurePurse({}, undefined, "hot");
  const profile = await profileTransfers();
  const twoProcesses = await measureTwoProcesses();
  const bare = await measureBare();
  const bareHot = await measureBare("hot");
  const pgledger = await measurePgledger();
  const pgledgerHot = await measurePgledger("hot");
  const tpcb = await measureTpcb();
  step(`History as a merchant grows: ${historySizes.join(", ")} transactions of its own`);
  const history = await measureHistory(historySizes, purseEnvironment);
  const figures: Figures = {
    ...purse,
    purseHot,
    profile,
    twoProcesses,
    bare,
    bareHot,
    pgledger,
    pgledgerHot,
    tpcb,
  };
  const text = `${report(figures, { connections, seconds, warmUpSeconds })}\n${historyReport(history)}`;
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
