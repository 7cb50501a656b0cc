import { randomBytes } from "node:crypto";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { dataDirError, makeDataDir } from "./make-data-dir.ts";

/**
 * PGlite takes no lock on its data directory: two processes that open it each work on their own
 * copy in memory and the last to write wins, so a credit made by the CLI while `purse serve` runs
 * silently disappears. The embedded database is therefore held by one process at a time, through a
 * lock file naming its owner. A lock whose owner is gone (killed, crashed, rebooted) is stale and
 * taken over.
 *
 * Why refuse rather than talk to the running server over PGlite's socket server: PGlite has one
 * session, so a CLI transaction arriving over the wire could interleave with a transaction the
 * server runs in process and commit inside it. Money needs the plain answer.
 */
export interface DataDirLock {
  readonly path: string;
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export class DataDirInUseError extends Error {
  override readonly name = "DataDirInUseError";
  constructor(dataDir: string, owner: LockOwner, lockPath: string) {
    super(
      `the embedded database in ${dataDir} is in use by \`${owner.command}\` (pid ${owner.pid}${
        owner.host === hostname() ? "" : ` on ${owner.host}`
      }, since ${owner.since}); one process at a time may open it: stop that process and run this again, ` +
        `or run Purse on PostgreSQL (set DATABASE_URL) to use the CLI while it serves ` +
        `(if no such process runs, delete ${lockPath})`,
    );
  }
}

const lockFileName = "purse.lock";

export async function lockDataDir(dataDir: string, command: string): Promise<DataDirLock> {
  await makeDataDir(dataDir);
  const path = join(dataDir, lockFileName);
  const mine: LockOwner = { pid: process.pid, host: hostname(), command, since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await writeFile(path, text, { flag: "wx" });
      return { path, release: () => releaseIfMine(path, text) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw dataDirError(dataDir, `cannot write ${lockFileName} in it (${code})`);
    }
    const owner = await readOwner(path);
    if (owner === "gone") continue;
    if (owner !== "unreadable" && (await isAlive(owner))) throw new DataDirInUseError(dataDir, owner, path);
    await removeStale(path, owner === "unreadable" ? null : JSON.stringify(owner));
  }
  throw new Error(`cannot take the lock ${path}: other processes keep racing for it; try again`);
}

async function readOwner(path: string): Promise<LockOwner | "gone" | "unreadable"> {
  // The owner writes its line right after creating the file; give it a moment before calling an
  // empty file stale.
  for (let look = 0; look < 10; look += 1) {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
      throw error;
    }
    try {
      const owner = JSON.parse(text) as LockOwner;
      if (typeof owner.pid === "number") return owner;
    } catch {
      // half-written or foreign content
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return "unreadable";
}

async function isAlive(owner: LockOwner): Promise<boolean> {
  // A process on another machine (a shared volume) cannot be checked from here: assume it lives.
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // After a reboot the pid may belong to an unrelated process; on Linux, check it is a Purse one.
  const commandLine = await readFile(`/proc/${owner.pid}/cmdline`, "utf8").catch(() => null);
  return commandLine === null || commandLine.includes("purse");
}

/**
 * Two processes may find the same stale lock. Each moves it aside under a unique name (atomic); if
 * what it moved turns out to be a fresh lock another process had just taken, it is linked back
 * (link fails rather than overwrite), so a live owner never loses its lock.
 */
async function removeStale(path: string, staleText: string | null): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => null);
  if (staleText !== null && moved !== staleText && moved !== null && moved !== "") {
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

async function releaseIfMine(path: string, text: string): Promise<void> {
  const current = await readFile(path, "utf8").catch(() => null);
  if (current === text) await unlink(path).catch(() => undefined);
}
