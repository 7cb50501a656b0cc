import { type ChildProcess, execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "@purse/testing";

/** Real `purse` processes for the operations tests: a verb run to completion, or a running serve. */
const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));
export const secretKey = "operations-test-secret-key-of-32-chars!";

/** The test process's environment without what a real shell would not have or what tests set. */
function baseEnvironment(): NodeJS.ProcessEnv {
  // Vite puts BASE_URL="/" into the test process's environment; a real shell would not have it.
  const {
    BASE_URL: _vite,
    DATABASE_URL: _db,
    REDIS_URL: _redis,
    PURSE_DATA_DIR: _dir,
    ...inherited
  } = process.env;
  return { ...inherited, PURSE_SECRET_KEY: secretKey, LOG_LEVEL: "silent", PURSE_CAPTCHA: "off" };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs one verb to its end; `input` is its standard input (closed at once without it). */
export function runPurse(args: string[], env: Record<string, string>, input = ""): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...baseEnvironment(), ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, output: stdout + stderr });
      },
    );
    child.stdin?.end(input);
  });
}

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `purse serve` on a free port; does not wait (see waitUntil). */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [bin, "serve"], {
    env: { ...baseEnvironment(), PORT: String(port), HOST: "127.0.0.1", BASE_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url,
    child,
    output: () => printed,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls `path` until it answers `status`; fails early if the process exits. */
export async function waitUntil(
  serve: ServeProcess,
  path: string,
  status = 200,
  timeoutMs = 90_000,
): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (serve.child.exitCode !== null) {
      throw new Error(`purse serve exited with ${serve.child.exitCode}:\n${serve.output()}`);
    }
    const response = await fetch(`${serve.url}${path}`).catch(() => null);
    if (response?.status === status) return response;
    await response?.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`purse serve at ${serve.url} did not answer ${status} on ${path}:\n${serve.output()}`);
}
