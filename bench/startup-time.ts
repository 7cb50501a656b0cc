/**
 * `tsx bench/startup-time.ts`: start-up to the first `/readyz` 200, measured as `npm run bench`
 * measures it (startPurse: the built `purse serve` on a migrated, seeded PostgreSQL, Redis), but
 * only that, several times. PURSE_BENCH_BINS (comma-separated paths to bin/purse.js of built
 * checkouts) alternates builds start by start, so that a busy machine weighs on each alike;
 * PURSE_BENCH_STARTS starts per build (5). Each build is started once first and not counted: a
 * fresh build's first start also fills V8's compile cache, which later starts read.
 * PURSE_BENCH_PROFILE=<dir>: each counted start under `--cpu-prof`, its profile written there.
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { createBenchDatabase } from "./bench-database.ts";
import { benchSecretKey } from "./bench-fixture.ts";
import { startPurse } from "./purse-process.ts";

const profileDir = process.env["PURSE_BENCH_PROFILE"];
const starts = Number(process.env["PURSE_BENCH_STARTS"] ?? 5);
const bins = (
  process.env["PURSE_BENCH_BINS"] ??
  fileURLToPath(new URL("../packages/server/bin/purse.js", import.meta.url))
).split(",");

const database = await createBenchDatabase("purse_startup");
try {
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379",
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_WEBHOOK_WORKER: "off",
    PURSE_REDIS_PREFIX: database.name,
    MALLOC_MMAP_THRESHOLD_: "1048576",
    // As run-bench.ts sets it: Node 22 needs the flag, Node 24 refuses it.
    NODE_OPTIONS: process.versions.node.startsWith("22.")
      ? "--max-old-space-size=256 --experimental-async-context-frame"
      : "--max-old-space-size=256",
  };
  /** Milliseconds to ready, and the CPU time the process had used by then (less swayed by other work). */
  const startOnce = async (bin: string, profile?: string): Promise<[number, number]> => {
    const server = await startPurse(env, profile, bin);
    const cpu = await server.cpuMs();
    await server.stop();
    return [server.readyAfterMs, cpu];
  };
  for (const bin of bins) await startOnce(bin);
  const figures = new Map<string, number[]>(bins.map((bin) => [bin, []]));
  const cpuFigures = new Map<string, number[]>(bins.map((bin) => [bin, []]));
  for (let round = 0; round < starts; round += 1) {
    for (const bin of bins) {
      const load = loadavg()[0] ?? 0;
      const [ms, cpu] = await startOnce(bin, profileDir);
      figures.get(bin)?.push(ms);
      cpuFigures.get(bin)?.push(cpu);
      console.log(`${bin}: ${ms.toFixed(0)} ms, CPU ${cpu} ms (load ${load.toFixed(2)})`);
    }
  }
  for (const bin of bins) {
    console.log(
      `${bin}: ready ${spread(figures.get(bin) ?? [])}; CPU ${spread(cpuFigures.get(bin) ?? [])} over ${starts} starts`,
    );
  }
} finally {
  await database.drop();
}

function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(0)} ms (${sorted[0]?.toFixed(0)} to ${sorted.at(-1)?.toFixed(0)})`;
}
