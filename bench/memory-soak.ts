/**
 * `npx tsx --conditions=source bench/memory-soak.ts`: issue 40 item 4, measured. One built
 * `purse serve` (PostgreSQL + Redis, a scratch database holding the bench world and
 * PURSE_SOAK_CLIENTS API clients of their own, each with its own secret) and that many clients
 * that each take a new token through `/token` before every call, as integrations in the wild do,
 * and then make a transfer. They come in bursts: every cycle all of them start at once, run
 * for the cycle's active part and pause for the rest, so every cycle opens with as many `/token`
 * calls at once as there are clients. The server's resident set (/proc) and V8's heap (its
 * /metrics) are sampled every few seconds for the whole run; the report gives the peak and the
 * end, and how the answers went. Exits 1 when the resident set went above the bound.
 *
 * The server runs as `npx purse serve` does, with glibc's malloc defaults: PURSE_SOAK_ENV (JSON)
 * adds variables to its environment (e.g. '{"MALLOC_MMAP_THRESHOLD_":"1048576"}', as the
 * Dockerfile sets it).
 *
 * Settings (environment): PURSE_SOAK_SECONDS (720), PURSE_SOAK_CLIENTS (200),
 * PURSE_SOAK_CYCLE_SECONDS (30), PURSE_SOAK_ACTIVE_SECONDS (20 of each cycle),
 * PURSE_SOAK_SAMPLE_SECONDS (5), PURSE_SOAK_BOUND_MB (250), PURSE_SOAK_SAMPLES (a file to write
 * every sample to, as CSV).
 */
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import {
  benchFixture,
  benchSecretKey,
  merchants,
  walletNumber,
  walletsPerMerchant,
} from "./bench-fixture.ts";
import { type SoakSample, sampleServer, summarizeSamples } from "./memory-soak-samples.ts";
import { startPurse } from "./purse-process.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = setting("PURSE_SOAK_SECONDS", 720);
const clients = setting("PURSE_SOAK_CLIENTS", 200);
const cycleSeconds = setting("PURSE_SOAK_CYCLE_SECONDS", 30);
const activeSeconds = setting("PURSE_SOAK_ACTIVE_SECONDS", 20);
const sampleSeconds = setting("PURSE_SOAK_SAMPLE_SECONDS", 5);
const boundMb = setting("PURSE_SOAK_BOUND_MB", 250);
const extraEnv = JSON.parse(process.env["PURSE_SOAK_ENV"] ?? "{}") as Record<string, string>;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/** The soak's own API clients, spread over the bench world's merchants, each with its own secret. */
const soakClients = Array.from({ length: clients }, (_, index) => ({
  clientId: `soak${index + 1}`,
  secret: `soak-secret-${index + 1}-of-the-memory-run`,
  merchant: (index % merchants) + 1,
}));

interface Tally {
  readonly statuses: Record<string, number>;
  readonly tokenMs: number[];
  readonly callMs: number[];
}

async function main(): Promise<void> {
  const database = await createScratchDatabase("purse_soak");
  const world = benchFixture();
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(benchSecretKey), {
    ...world,
    clients: [
      ...world.clients,
      ...soakClients.map((client) => ({
        user_id: client.merchant,
        client_id: client.clientId,
        client_secret: client.secret,
        form_token: `form-${client.clientId}`,
      })),
    ],
  });
  await db.close();
  const server = await startPurse({
    DATABASE_URL: database.url,
    REDIS_URL: process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379",
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_CAPTCHA: "off",
    PURSE_REDIS_PREFIX: database.name,
    PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
    PURSE_TOKEN_RATE_LIMIT_PER_MINUTE: "1000000",
    PURSE_WEBHOOK_WORKER: "off",
    ...extraEnv,
  });
  const samples: SoakSample[] = [];
  const started = Date.now();
  const phaseAt = (at: number) => {
    const intoRun = (at - started) / 1000;
    if (intoRun >= seconds) return "after";
    return intoRun % cycleSeconds < activeSeconds ? "active" : "pause";
  };
  const sample = async () =>
    samples.push(await sampleServer(server.url, server.pid, started, phaseAt(Date.now())));
  try {
    console.log(
      `memory-soak: ${clients} clients, a token through /token before each transfer, ${activeSeconds} s of ` +
        `every ${cycleSeconds} s, for ${seconds} s; extra env ${JSON.stringify(extraEnv)}; ready after ` +
        `${server.readyAfterMs.toFixed(0)} ms. Load average at start: ${load()}`,
    );
    await sample();
    const sampler = setInterval(() => void sample(), sampleSeconds * 1000);
    const cpuBefore = await server.cpuMs();
    const tally: Tally = { statuses: {}, tokenMs: [], callMs: [] };
    const runId = Date.now().toString(36);
    await Promise.all(
      soakClients.map((client, index) => runClient(server.url, client, index, runId, started, tally)),
    );
    const cpuSeconds = ((await server.cpuMs()) - cpuBefore) / 1000;
    // A last pause with nothing to do: what the process gives back once the load is over.
    await new Promise((resolve) => setTimeout(resolve, (cycleSeconds - activeSeconds) * 1000));
    clearInterval(sampler);
    await sample();
    const summary = summarizeSamples(samples);
    const percentile = (values: number[], p: number) =>
      values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
    const transfers = tally.statuses["transfer 200"] ?? 0;
    console.log(
      JSON.stringify(
        {
          ...summary,
          statuses: tally.statuses,
          transfersPerSecondActive: transfers / ((seconds * activeSeconds) / cycleSeconds),
          tokenMs: { p50: percentile(tally.tokenMs, 0.5), p99: percentile(tally.tokenMs, 0.99) },
          transferMs: { p50: percentile(tally.callMs, 0.5), p99: percentile(tally.callMs, 0.99) },
          serverCpuSeconds: Number(cpuSeconds.toFixed(1)),
        },
        null,
        2,
      ),
    );
    console.log(`Load average at the end: ${load()}`);
    const out = process.env["PURSE_SOAK_SAMPLES"];
    if (out) {
      const rows = samples.map((s) => [s.atSeconds, s.phase, s.rssMb, s.heapUsedMb, s.heapTotalMb].join(","));
      await writeFile(out, `${["at_s,phase,rss_mb,heap_used_mb,heap_total_mb", ...rows].join("\n")}\n`);
    }
    const held = summary.peakRssMb < boundMb;
    console.log(
      `${held ? "held" : "FAILED"}: resident set below ${boundMb} MB throughout (peak ${summary.peakRssMb} MB)`,
    );
    if (!held) process.exitCode = 1;
  } finally {
    await server.stop();
    await database.drop();
  }
}

/** One client: in each cycle's active part, a token and then a transfer, again and again. */
async function runClient(
  url: string,
  client: (typeof soakClients)[number],
  index: number,
  runId: string,
  started: number,
  tally: Tally,
): Promise<void> {
  const count = (what: string) => {
    tally.statuses[what] = (tally.statuses[what] ?? 0) + 1;
  };
  let sequence = 0;
  for (;;) {
    const intoRun = (Date.now() - started) / 1000;
    if (intoRun >= seconds) return;
    const intoCycle = intoRun % cycleSeconds;
    if (intoCycle >= activeSeconds) {
      // Every client waits for the next cycle's start, so they all ask their tokens at once.
      await new Promise((resolve) => setTimeout(resolve, (cycleSeconds - intoCycle) * 1000));
      continue;
    }
    sequence += 1;
    const tokenStarted = performance.now();
    const token = await fetch(`${url}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.secret,
      }),
    }).then(
      async (response) => {
        count(`token ${response.status}`);
        const body = (await response.json()) as { access_token?: string };
        return body.access_token;
      },
      () => {
        count("token error");
        return undefined;
      },
    );
    tally.tokenMs.push(performance.now() - tokenStarted);
    if (!token) {
      // Refused (busy or limited): wait a little as a client honouring Retry-After would.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    const to = (client.merchant % merchants) + 1;
    const callStarted = performance.now();
    await fetch(`${url}/api/transaction/transfer`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        wallet_from: walletNumber(client.merchant, (index + sequence) % walletsPerMerchant),
        wallet_to: walletNumber(to, (index * 7 + sequence) % walletsPerMerchant),
        amount: "0.01",
        payment_id: `soak-${runId}-${client.clientId}-${sequence}`,
        description: `soak ${sequence}`,
      }),
    }).then(
      async (response) => {
        count(`transfer ${response.status}`);
        await response.arrayBuffer();
      },
      () => count("transfer error"),
    );
    tally.callMs.push(performance.now() - callStarted);
  }
}

await main();
