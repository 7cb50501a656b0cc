import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { SeededDatabase } from "./test-server.ts";
import { testSecretKey } from "./test-server.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `purse` command against `database`, as an operator would. */
export async function purseCli(
  database: SeededDatabase,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  // Vite puts BASE_URL="/" into the test process's environment; a real shell would not have it.
  const { BASE_URL: _vite, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: {
        ...inherited,
        DATABASE_URL: database.url,
        PURSE_SECRET_KEY: testSecretKey,
        LOG_LEVEL: "silent",
        ...env,
      },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
