import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

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
  const child = spawn(
    process.execPath,
    [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), bin, "serve"],
    {
      env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent" },
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
 * CPU time used so far by every PostgreSQL process on this machine (the server's backends and
 * helpers), by process id: the difference of two readings is PostgreSQL's share of a phase.
 */
export async function postgresCpuMs(): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const comm = await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "");
    if (comm.trim() === "postgres") used.set(pid, await cpuMsOf(pid));
  }
  return used;
}

/** What PostgreSQL used between two `postgresCpuMs` readings (a process started between counts whole). */
export function postgresCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** utime + stime from /proc/<pid>/stat (clock ticks of 10 ms on Linux). */
/**
 * How many write system calls (`write`, `writev`, `sendmsg`...: /proc's `syscw`) the process has
 * made: per transfer, the socket writes its requests cost (HTTP answers, PostgreSQL, Redis).
 */
export async function writeCallsOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const io = await readFile(`/proc/${pid}/io`, "utf8").catch(() => "");
  return Number(/^syscw: (\d+)$/m.exec(io)?.[1] ?? 0);
}

export async function cpuMsOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}
