import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchSecretKey } from "./bench-fixture.ts";
import { merchantToken } from "./history-load.ts";
import { startPurse } from "./purse-process.ts";
import { adminUrl } from "./scratch-database.ts";

/**
 * The whole-range CSV export (`GET /api/transactions/export`) of the history merchant, measured by
 * hand on a ledger the history phase loaded and kept (`PURSE_BENCH_KEEP_DATABASE=1`):
 * `tsx --conditions=source bench/export-measure.ts <database>`. Prints the rows, bytes and time,
 * the server's peak resident set against its size before, its event-loop lag (prom-client's
 * maximum over the download), and with PURSE_BENCH_PROFILE=1 the longest stretches the server's
 * thread ran without a pause, with what ran in them (a CPU profile of `purse serve`).
 */
const name = process.argv[2];
if (!name) throw new Error("usage: export-measure.ts <database kept by the history phase>");
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const profileDir = process.env["PURSE_BENCH_PROFILE"]
  ? await mkdtemp(join(tmpdir(), "purse-export-"))
  : undefined;
const server = await startPurse(
  {
    DATABASE_URL: url.toString(),
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
    PURSE_WEBHOOK_WORKER: "off",
  },
  profileDir,
);
try {
  const token = await merchantToken(server.url);
  const lag = async () =>
    Number(
      /^purse_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(
        await (await fetch(`${server.url}/metrics`)).text(),
      )?.[1],
    ) * 1000;
  await lag();
  const before = await rss(server.pid);
  server.sampleMemory();
  const started = performance.now();
  const response = await fetch(`${server.url}/api/transactions/export?from=2000-01-01`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let bytes = 0;
  let lines = 0;
  let firstByteMs = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${response.status}: ${lines - 1} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s (first byte after ${firstByteMs.toFixed(0)} ms, ${((lines - 1) / seconds).toFixed(0)} rows/s); RSS ${before.toFixed(0)} MB before, peak ${server.peakRssMb().toFixed(0)} MB; event-loop lag max ${(await lag()).toFixed(0)} ms`,
  );
} finally {
  await server.stop();
}
if (profileDir) console.log(await longestStretches(profileDir));

async function rss(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** The five longest runs of samples without `(idle)` in the profile, and the functions heaviest in each. */
async function longestStretches(directory: string): Promise<string> {
  const file = (await readdir(directory)).find((entry) => entry.endsWith(".cpuprofile"));
  if (!file) return "no profile";
  const profile = JSON.parse(await readFile(join(directory, file), "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const runs: { ms: number; from: number; to: number }[] = [];
  let start = -1;
  let ms = 0;
  profile.samples.forEach((sample, index) => {
    const idle = frames.get(sample)?.functionName === "(idle)";
    if (!idle) {
      if (start < 0) [start, ms] = [index, 0];
      ms += (profile.timeDeltas[index] ?? 0) / 1000;
    } else if (start >= 0) {
      runs.push({ ms, from: start, to: index });
      start = -1;
    }
  });
  return runs
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((run) => {
      const counts = new Map<string, number>();
      for (const sample of profile.samples.slice(run.from, run.to)) {
        const frame = frames.get(sample);
        const key = `${frame?.functionName || "(anonymous)"} ${frame?.url.replace(/^.*node_modules\//, "").replace(/^.*\/packages\//, "") ?? ""}:${(frame?.lineNumber ?? 0) + 1}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6);
      return `${run.ms.toFixed(0)} ms busy: ${top.map(([key, n]) => `${key} (${n})`).join(", ")}`;
    })
    .join("\n");
}
