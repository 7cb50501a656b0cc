/**
 * `tsx --conditions=source bench/rss-stages.ts`: where `purse serve`'s resident memory comes from,
 * stage by stage on the bench world (bench-fixture.ts): after start, after 32 `/token` calls (each
 * an argon2id check of 19 MiB), after a one-second warm-up and after the transfer load
 * (PURSE_PROBE_SECONDS, 10). Anonymous memory is heap, arenas and stacks; file-backed is the
 * binary and libraries. PURSE_PROBE_ENV (JSON) adds variables to the server's environment, e.g.
 * '{"MALLOC_MMAP_THRESHOLD_":""}' to see the glibc default (docs/deploy.md, "Memory").
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createBenchDatabase } from "./bench-database.ts";
import { benchSecretKey, benchTransfer, merchants } from "./bench-fixture.ts";
import { drive } from "./load.ts";
import { startPurse } from "./purse-process.ts";

const extra = JSON.parse(process.env["PURSE_PROBE_ENV"] ?? "{}") as Record<string, string>;
const seconds = Number(process.env["PURSE_PROBE_SECONDS"] ?? 10);
const database = await createBenchDatabase("purse_rss");
try {
  const server = await startPurse({
    DATABASE_URL: database.url,
    REDIS_URL: process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379",
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
    PURSE_WEBHOOK_WORKER: "off",
    PURSE_REDIS_PREFIX: database.name,
    MALLOC_MMAP_THRESHOLD_: "1048576",
    ...extra,
  });
  const resident = async (stage: string) => {
    const rollup = await readFile(`/proc/${server.pid}/smaps_rollup`, "utf8");
    const mb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0) / 1024;
    console.log(
      `${stage}: RSS ${mb("Rss").toFixed(0)} MB (anonymous ${mb("Anonymous").toFixed(0)}, files ${(mb("Rss") - mb("Anonymous")).toFixed(0)})`,
    );
  };
  try {
    await resident("ready");
    const tokens: string[] = [];
    for (let id = 1; id <= merchants; id += 1) {
      const response = await fetch(`${server.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: `bench${id}`,
          client_secret: "bench-secret",
        }),
      });
      tokens.push(((await response.json()) as { access_token: string }).access_token);
    }
    await resident(`after ${merchants} tokens`);
    const runId = randomBytes(3).toString("hex");
    const target = {
      url: server.url,
      path: "/api/transaction/transfer",
      request(sequence: number) {
        const transfer = benchTransfer(sequence, runId);
        return {
          headers: { "content-type": "application/json", authorization: `Bearer ${tokens[transfer.from]}` },
          body: JSON.stringify(transfer.body),
        };
      },
    };
    await drive([target], 32, 1);
    await resident("after warm-up");
    const result = await drive([target], 32, seconds);
    await resident(`after ${seconds} s of transfers (${result.perSecond.toFixed(0)}/s)`);
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}
