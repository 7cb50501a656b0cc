import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../config/config.ts";

/** PURSE_DATA_DIR refused: one line naming the variable, its value and what is wrong. */
export function dataDirError(dataDir: string, problem: string): ConfigError {
  return new ConfigError([`PURSE_DATA_DIR=${JSON.stringify(dataDir)}: ${problem}`]);
}

/**
 * Creates PURSE_DATA_DIR and its missing parents one level at a time. Not `mkdir(recursive)`:
 * under /proc or /sys it never returns (Node keeps retrying a parent that exists but takes no new
 * directory), and its errors name a path, not the variable that chose it.
 */
export async function makeDataDir(dataDir: string): Promise<void> {
  const missing: string[] = [];
  for (let path = resolve(dataDir); ; path = dirname(path)) {
    const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a parent is a file; walking up finds it and says so.
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
      throw dataDirError(dataDir, `cannot look at ${path} (${error.code})`);
    });
    if (found?.isDirectory()) break;
    if (found) {
      throw dataDirError(
        dataDir,
        path === resolve(dataDir) ? "is a file, not a directory" : `${path} is a file, not a directory`,
      );
    }
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of missing) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw dataDirError(dataDir, `cannot create ${path} (${error.code})`);
    });
  }
}
