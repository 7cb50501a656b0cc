import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SeededDatabase } from "./test-server.ts";
import { testSecretKey } from "./test-server.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the real `purse` command against `database`, as an operator would; `input` is what it
 * reads on standard input (closed at once without it, as under a script with nothing piped in).
 */
export function purseCli(
  database: SeededDatabase,
  args: string[],
  env: Record<string, string> = {},
  input = "",
): Promise<CliRun> {
  // Vite puts BASE_URL="/" into the test process's environment; a real shell would not have it.
  const { BASE_URL: _vite, ...inherited } = process.env;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        env: {
          ...inherited,
          DATABASE_URL: database.url,
          PURSE_SECRET_KEY: testSecretKey,
          LOG_LEVEL: "silent",
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}
