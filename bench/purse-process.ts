import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { cpuMsOf } from "./process-cpu.ts";

const purseBin = fileURLToPath(new URL("../packages/server/bin/purse.js", import.meta.url));

export interface PurseProcess {
  readonly url: string;
  readonly pid: number | undefined;
  /** Milliseconds from spawn to the first `/readyz` 200. */
  readonly readyAfterMs: number;
  /** Highest resident set size seen since `sampleMemory()` was called, in MB. */
  peakRssMb(): number;
  sampleMemory(): void;
  /** CPU time (user + system, all threads) the process has used so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `purse serve` in its own process, as in production, so the load generator does not share its thread. */
export async function startPurse(
  env: Record<string, string>,
  profileDir?: string,
  bin: string = purseBin,
): Promise<PurseProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // Node's own flags for the server (V8's among them, which NODE_OPTIONS refuses): a phase's
  // PURSE_BENCH_NODE_ARGS, so that PURSE_BENCH_VARIABLE can alternate them.
  const nodeArgs = (env["PURSE_BENCH_NODE_ARGS"] ?? process.env["PURSE_BENCH_NODE_ARGS"] ?? "")
    .split(" ")
    .filter((arg) => arg.length > 0);
  const child = spawn(
    process.execPath,
    [...nodeArgs, ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), bin, "serve"],
    {
      // Silent unless asked: PURSE_BENCH_LOG_LEVEL for every phase, or a phase's own LOG_LEVEL
      // (PURSE_BENCH_VARIABLE=LOG_LEVEL compares levels).
      env: {
        ...process.env,
        LOG_LEVEL: process.env["PURSE_BENCH_LOG_LEVEL"] ?? "silent",
        ...env,
        PORT: String(port),
        HOST: "127.0.0.1",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const readyAfterMs = await waitReady(url, child, started);
  let peak = 0;
  let sampler: NodeJS.Timeout | undefined;
  return {
    url,
    pid: child.pid,
    readyAfterMs,
    peakRssMb: () => peak,
    cpuMs: () => cpuMsOf(child.pid),
    sampleMemory() {
      sampler ??= setInterval(async () => {
        peak = Math.max(peak, await residentMb(child.pid));
      }, 250);
    },
    async stop() {
      if (sampler) clearInterval(sampler);
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

async function waitReady(url: string, child: ChildProcess, started: number): Promise<number> {
  while (performance.now() - started < 60_000) {
    if (child.exitCode !== null)
      throw new Error(`purse serve exited with ${child.exitCode} before it was ready`);
    const status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("purse serve was not ready within 60 s");
}

async function residentMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kilobytes ? Number(kilobytes) / 1024 : 0;
}

/**
 * How many write system calls (`write`, `writev`, `sendmsg`...: /proc's `syscw`) the process has
 * made: per transfer, the socket writes its requests cost (HTTP answers, PostgreSQL, Redis).
 */
export async function writeCallsOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const io = await readFile(`/proc/${pid}/io`, "utf8").catch(() => "");
  return Number(/^syscw: (\d+)$/m.exec(io)?.[1] ?? 0);
}
