import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The engine reads the time of its rules only through its clock port (`EngineDependencies.now`),
 * so a test clock drives every one of them (contract: "Test clock"). What may read the system
 * clock itself is the machinery that must run on real time whatever the caller's clock says: each
 * file below, with why.
 */
const realTimeMachinery: Record<string, string> = {
  "auth/token-cache.ts":
    "how long a verified token is trusted in memory (the expiry itself is checked on the clock)",
  "auth/verified-secrets.ts": "how long a verified client secret skips its slow hash",
  "captcha/captcha.ts": "the hosted page's proof-of-work challenge, for a browser on real time",
  "captcha/spent-captchas.ts": "forgetting spent challenges after their real lifetime",
  "ledger/run-movement.ts": "the route lock's deadline: Redis expires the lock on real time",
  "ledger/movement-batch.ts": "the same deadline for a batch's members",
  "ledger/wallet-memory.ts":
    "how long a wallet is remembered: real time, which its row versions' turnover follows",
  "locks/memory-route-lock.ts": "the in-process route lock's expiry (real time, as Redis's)",
  "persistence/read-replica.ts": "how long an unreachable replica or primary is left alone",
  "rate-limit/memory-rate-limiter.ts": "the adapter's default when a call carries no clock's time",
  "webhooks/webhook-dispatcher.ts": "delivery leases and back-off pauses of the worker",
};

const engineSource = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const production =
      entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.includes("test-support");
    return production ? [path] : [];
  });
}

describe("the engine's clock port", () => {
  it("is the only way its rules read the time", () => {
    const readers = sourceFiles(engineSource)
      .filter((path) =>
        /Date\.now\(\)|new Date\(\)/.test(readFileSync(path, "utf8").replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "")),
      )
      .map((path) => relative(engineSource, path).replaceAll("\\", "/"))
      .sort();
    expect(readers).toEqual(Object.keys(realTimeMachinery).sort());
  });
});
