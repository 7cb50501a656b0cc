import { readdir, readFile } from "node:fs/promises";

/**
 * CPU time of every process a bench phase loads, read from /proc before and after the phase: the
 * stack's own server (Purse or the bare server), every PostgreSQL and Redis process on the machine,
 * and the load generator (autocannon runs inside the bench's own process; pgbench is a child the
 * bench waits for, counted in the bench's children's time). PostgreSQL and Redis are shared: on a
 * machine where other work uses them, their share per transfer includes that work.
 *
 * A PostgreSQL backend that exits during the phase (pgbench's connections close when it ends) is
 * gone from /proc by the second reading: its time is found in its parent's, the postmaster's,
 * reaped-children time (cutime + cstime), which is counted for every process read. So a command's
 * total is the sum over its processes of their own and their reaped children's time, and a
 * phase's share is the difference of the two sums: a backend that vanished counted its time
 * before the phase in the first sum, and all of it in the postmaster's in the second.
 */
export interface CpuReading {
  readonly server: number;
  readonly postgres: number;
  readonly redis: number;
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
    postgres: byName.get("postgres") ?? 0,
    redis: byName.get("redis-server") ?? 0,
    loadGenerator: own,
  };
}

export function cpuPerTransfer(before: CpuReading, after: CpuReading, transfers: number): CpuPerTransfer {
  const per = (ms: number) => ms / Math.max(1, transfers);
  const server = per(after.server - before.server);
  const postgres = per(after.postgres - before.postgres);
  const redis = per(after.redis - before.redis);
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

/** utime + stime + cutime + cstime: the process's time and that of the children it has reaped. */
async function cpuWithReapedMs(pid: string): Promise<number> {
  const fields = await statFields(pid);
  return [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field] ?? 0), 0) * 10;
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

/** CPU used so far by the processes named each of `commands` on this machine, with their reaped children's. */
async function cpuByCommand(commands: readonly string[]): Promise<Map<string, number>> {
  const used = new Map<string, number>(commands.map((command) => [command, 0]));
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = (await readFile(`/proc/${entry}/comm`, "utf8").catch(() => "")).trim();
    const sum = used.get(comm);
    if (sum !== undefined) used.set(comm, sum + (await cpuWithReapedMs(entry)));
  }
  return used;
}
