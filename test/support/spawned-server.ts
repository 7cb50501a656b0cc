import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "@purse/testing";
import type { SeededDatabase } from "./test-server.ts";
import { testSecretKey } from "./test-server.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

export interface SpawnedServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** SIGTERM (or another signal) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Everything it has written to stdout and stderr so far, every byte (its logs). */
  output(): string;
}

/**
 * A real `purse serve` in its own OS process over `database`, ready when /healthz answers; `env`
 * adds to or overrides its environment (LOG_LEVEL is silent unless it says otherwise).
 */
export async function spawnPurseServe(
  database: SeededDatabase,
  env: Record<string, string> = {},
): Promise<SpawnedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Vite puts BASE_URL="/" into the test process's environment; a real shell would not have it.
  const { BASE_URL: _vite, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, "serve"], {
    env: {
      ...inherited,
      DATABASE_URL: database.url,
      REDIS_URL: process.env["PURSE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: url,
      LOG_LEVEL: "silent",
      PURSE_SECRET_KEY: testSecretKey,
      PURSE_CAPTCHA: "off",
      PURSE_REDIS_PREFIX: database.name,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  await waitUntilHealthy(url, child, () => output);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url,
    process: child,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    output: () => output,
  };
}

/**
 * Long enough for a process that compiles its sources through tsx (the traced run from the sources)
 * on a loaded two-core machine; a healthy start answers in about a second.
 */
const healthyWithinMs = 60_000;

async function waitUntilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + healthyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`purse serve exited with ${child.exitCode} before it was healthy:\n${output()}`);
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`purse serve at ${url} was not healthy within ${healthyWithinMs / 1000} s:\n${output()}`);
}
