import { readdir, readFile } from "node:fs/promises";

/**
 * CPU time of every process a bench phase loads, read from /proc before and after the phase: the
 * stack's own server (Purse or the bare server), every PostgreSQL and Redis process on the machine,
 * and the load generator (autocannon runs inside the bench's own process; pgbench is a child the
 * bench waits for, counted in the bench's children's time). PostgreSQL and Redis are shared: on a
 * machine where other work uses them, their share per transfer includes that work.
 */
export interface CpuReading {
  readonly server: number;
  readonly postgres: ReadonlyMap<number, number>;
  readonly redis: ReadonlyMap<number, number>;
  /** The bench process itself (all threads) plus the children it has waited for. */
  readonly loadGenerator: number;
}

/** Milliseconds of CPU per answered transfer, by process. */
export interface CpuPerTransfer {
  readonly server: number;
  readonly postgres: number;
  readonly redis: number;
  readonly loadGenerator: number;
  readonly total: number;
}

export async function readCpu(serverPid?: number): Promise<CpuReading> {
  const [server, byName, own] = await Promise.all([
    serverPid === undefined ? 0 : cpuMsOf(serverPid),
    cpuByCommand(["postgres", "redis-server"]),
    ownAndChildrenMs(),
  ]);
  return {
    server,
    postgres: byName.get("postgres") ?? new Map(),
    redis: byName.get("redis-server") ?? new Map(),
    loadGenerator: own,
  };
}

export function cpuPerTransfer(before: CpuReading, after: CpuReading, transfers: number): CpuPerTransfer {
  const per = (ms: number) => ms / Math.max(1, transfers);
  const server = per(after.server - before.server);
  const postgres = per(usedBetween(before.postgres, after.postgres));
  const redis = per(usedBetween(before.redis, after.redis));
  const loadGenerator = per(after.loadGenerator - before.loadGenerator);
  return { server, postgres, redis, loadGenerator, total: server + postgres + redis + loadGenerator };
}

export function describeCpu(cpu: CpuPerTransfer, serverName = "server"): string {
  const ms = (value: number) => value.toFixed(2);
  return `CPU per transfer ${ms(cpu.total)} ms (${serverName} ${ms(cpu.server)}, PostgreSQL ${ms(cpu.postgres)}, Redis ${ms(cpu.redis)}, load generator ${ms(cpu.loadGenerator)})`;
}

/** utime + stime from /proc/<pid>/stat (clock ticks of 10 ms on Linux). */
export async function cpuMsOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const fields = await statFields(String(pid));
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): field 3 on. */
async function statFields(pid: string): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** This process's CPU (all threads, µs precision) and its waited-for children's (cutime + cstime). */
async function ownAndChildrenMs(): Promise<number> {
  const { user, system } = process.cpuUsage();
  const fields = await statFields("self");
  return (user + system) / 1000 + (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) * 10;
}

/** CPU used so far by each process named `commands` on this machine, by command and process id. */
async function cpuByCommand(commands: readonly string[]): Promise<Map<string, Map<number, number>>> {
  const used = new Map<string, Map<number, number>>(commands.map((command) => [command, new Map()]));
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const comm = (await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "")).trim();
    used.get(comm)?.set(pid, await cpuMsOf(pid));
  }
  return used;
}

/** What processes used between two readings (a process started between counts whole). */
function usedBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
