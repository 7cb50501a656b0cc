/**
 * The figures of one `npm run bench` and the Markdown it writes into docs/benchmark.md: every
 * stack's rate and latency in the spread and the hot-wallet case, and each process's CPU per transfer.
 */
import type { ProfileSummary } from "./cpu-profile-summary.ts";
import type { LoadResult } from "./load.ts";
import type { CpuPerTransfer } from "./process-cpu.ts";
import { describeTail, type RuntimeTail } from "./runtime-tail.ts";
import type { PgbenchRun } from "./scratch-database.ts";

/** A measured phase of a stack: its rate and latency, and every process's CPU per transfer. */
export type Phase = LoadResult & { cpu: CpuPerTransfer };

/** A pgbench phase (pgledger, TPC-B-like): its rate and CPU, or why it did not run. */
export type PgbenchPhase = (PgbenchRun & { cpu: CpuPerTransfer }) | string;

export interface PursePhase {
  purse: Phase;
  readyAfterMs: number;
  peakRssMb: number;
  /** Purse's write system calls per answered transfer (its socket writes). */
  writesPerTransfer: number;
  /** The process's own stalls during the load: GC pauses and event-loop delay. */
  tail: RuntimeTail;
  audit: string;
}

export interface Figures extends PursePhase {
  purseHot: PursePhase;
  twoProcesses: LoadResult;
  bare: Phase & { writesPerTransfer: number };
  bareHot: Phase;
  pgledger: PgbenchPhase;
  pgledgerHot: PgbenchPhase;
  tpcb: PgbenchPhase;
  profile: ProfileSummary;
}

export interface RunShape {
  readonly connections: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
}

export function ratio(part: number, whole: number | PgbenchPhase): string {
  const value = typeof whole === "object" ? whole.tps : whole;
  return typeof value === "number" && value > 0 ? (part / value).toFixed(2) : "n/a";
}

function rate(phase: PgbenchPhase, unit: string): string {
  return typeof phase === "string" ? `not measured: ${phase}` : `${phase.tps.toFixed(0)}${unit}`;
}

/** One row of the CPU table: a stack in one case, its rate and each process's ms per transfer. */
function cpuRow(stack: string, perSecond: string, p99: string, cpu: CpuPerTransfer | undefined): string {
  const ms = (value: number | undefined) => (value === undefined ? "" : value.toFixed(2));
  const server = cpu && cpu.server > 0 ? ms(cpu.server) : "–";
  return `| ${stack} | ${perSecond} | ${p99} | ${server} | ${ms(cpu?.postgres)} | ${ms(cpu?.redis)} | ${ms(cpu?.loadGenerator)} | ${ms(cpu?.total)} |`;
}

function pgbenchRow(stack: string, phase: PgbenchPhase): string {
  return typeof phase === "string"
    ? cpuRow(stack, `not measured: ${phase}`, "", undefined)
    : cpuRow(stack, `${phase.tps.toFixed(0)}/s`, "", phase.cpu);
}

export function report(figures: Figures, shape: RunShape): string {
  const { purse, bare, bareHot, twoProcesses, purseHot } = figures;
  const hot = purseHot.purse;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)}, one run, ${shape.connections} connections, ${shape.seconds} s per phase after ${shape.warmUpSeconds} s of the same load thrown away (pgbench's phases too), everything on this machine's cores:`,
    "",
    "| measure | figure | target |",
    "|---|---|---|",
    `| Purse transfers (with payment_id), spread wallets | ${purse.perSecond.toFixed(0)}/s, p50 ${purse.p50} ms, p99 ${purse.p99} ms, ${purse.refused} refused, ${purse.errors} errors | |`,
    `| Purse transfers, hot wallet (every payer into one merchant wallet) | ${hot.perSecond.toFixed(0)}/s, p50 ${hot.p50} ms, p99 ${hot.p99} ms, ${hot.refused} refused, ${hot.errors} errors | |`,
    `| bare server (node:http + pg), spread; hot wallet | ${bare.perSecond.toFixed(0)}/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms; ${bareHot.perSecond.toFixed(0)}/s, p99 ${bareHot.p99} ms | |`,
    `| pgledger via pgbench, spread; hot wallet | ${rate(figures.pgledger, "/s")}; ${rate(figures.pgledgerHot, "/s")} | |`,
    `| pgbench TPC-B-like | ${rate(figures.tpcb, " tps")} | |`,
    `| Purse / bare | ${ratio(purse.perSecond, bare.perSecond)} | ≥ 0.6 |`,
    `| Purse p99 / bare p99 | ${ratio(purse.p99, bare.p99)} | ≤ 1.5 |`,
    `| Purse / pgledger | ${ratio(purse.perSecond, figures.pgledger)} | ≥ 1.0 |`,
    `| Purse / bare, hot wallet | ${ratio(hot.perSecond, bareHot.perSecond)} | ≥ 0.8 |`,
    `| two Purse processes | ${twoProcesses.perSecond.toFixed(0)}/s, p99 ${twoProcesses.p99} ms | no target (one process against two, alternated: docs/benchmark.md) |`,
    `| start-up to /readyz 200 (migrated PostgreSQL) | ${figures.readyAfterMs.toFixed(0)} ms | < 1 500 ms |`,
    `| Purse peak RSS under load, spread; hot wallet | ${figures.peakRssMb.toFixed(0)} MB; ${purseHot.peakRssMb.toFixed(0)} MB | < 250 MB |`,
    `| write system calls per transfer: Purse, bare server | ${figures.writesPerTransfer.toFixed(1)}, ${bare.writesPerTransfer.toFixed(1)} | |`,
    `| Purse's own stalls under load | ${describeTail(figures.tail)} | |`,
    `| ledger after the run, spread; hot wallet | ${figures.audit}; ${purseHot.audit} | balanced |`,
    "",
    "CPU per answered transfer by process, in ms (user + system time from /proc over the measured phase; PostgreSQL is every backend and helper, Redis the server; the load generator is autocannon in the bench's process, or pgbench; PostgreSQL and Redis also count whatever else used them meanwhile):",
    "",
    "| stack, case | rate | p99 | server (Node) | PostgreSQL | Redis | load generator | total |",
    "|---|---|---|---|---|---|---|---|",
    cpuRow("Purse through HTTP, spread", `${purse.perSecond.toFixed(0)}/s`, `${purse.p99} ms`, purse.cpu),
    cpuRow("Purse through HTTP, hot wallet", `${hot.perSecond.toFixed(0)}/s`, `${hot.p99} ms`, hot.cpu),
    cpuRow("bare server, spread", `${bare.perSecond.toFixed(0)}/s`, `${bare.p99} ms`, bare.cpu),
    cpuRow("bare server, hot wallet", `${bareHot.perSecond.toFixed(0)}/s`, `${bareHot.p99} ms`, bareHot.cpu),
    pgbenchRow("pgledger, spread", figures.pgledger),
    pgbenchRow("pgledger, hot wallet", figures.pgledgerHot),
    pgbenchRow("pgbench TPC-B-like", figures.tpcb),
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
