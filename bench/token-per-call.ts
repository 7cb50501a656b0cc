/**
 * `npx tsx --conditions=source bench/token-per-call.ts`: issue 37 item 3, measured. An integration
 * asks a new token before each of its calls, 20 calls a second for 10 minutes, against two
 * `purse serve` processes (PostgreSQL + Redis, a scratch database) that it reaches in turn, while
 * another address hammers `/token` with wrong secrets for the same client id. It keeps working
 * when no call of it is refused (no 401, no 429), the token table stays bounded when the client
 * never holds more than PURSE_MAX_LIVE_TOKENS tokens, and the flood limit holds when the hammering
 * address is refused past PURSE_RATE_LIMIT_PER_MINUTE guesses a minute. Exits 1 otherwise.
 *
 * Settings (environment): PURSE_BENCH_SECONDS (600), PURSE_BENCH_CALLS_PER_SECOND (20),
 * PURSE_BENCH_PROCESSES (2), PURSE_BENCH_MAX_LIVE_TOKENS (1000), PURSE_BENCH_HAMMER_PER_SECOND (10:
 * ten times the flood limit's 60 a minute).
 * `/token`'s per-client limit is set to 1.25 times the client's rate a minute (20 a second are
 * 1 200 tokens a minute, twice the default 600, which a deployment serving such a client raises);
 * PURSE_RATE_LIMIT_PER_MINUTE stays at its default (60), so the flood limit is the default one and
 * payouts (one call in 40, 30 a minute) stay within the transfer route's own limit.
 */
import { loadavg } from "node:os";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { benchFixture, benchSecretKey, walletNumber } from "./bench-fixture.ts";
import { startPurse } from "./purse-process.ts";
import { createScratchDatabase } from "./scratch-database.ts";
import { runTokenPerCall } from "./token-per-call-load.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = setting("PURSE_BENCH_SECONDS", 600);
const callsPerSecond = setting("PURSE_BENCH_CALLS_PER_SECOND", 20);
const processes = setting("PURSE_BENCH_PROCESSES", 2);
const maxLiveTokens = setting("PURSE_BENCH_MAX_LIVE_TOKENS", 1000);
const hammerPerSecond = setting("PURSE_BENCH_HAMMER_PER_SECOND", 10);
const tokenLimit = Math.ceil(callsPerSecond * 60 * 1.25);
const floodLimit = 60;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

async function main(): Promise<void> {
  const database = await createScratchDatabase("purse_tokens");
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
  await db.close();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379",
    PURSE_SECRET_KEY: benchSecretKey,
    PURSE_CAPTCHA: "off",
    PURSE_REDIS_PREFIX: database.name,
    PURSE_TRUST_PROXY: "loopback",
    PURSE_TOKEN_RATE_LIMIT_PER_MINUTE: String(tokenLimit),
    PURSE_MAX_LIVE_TOKENS: String(maxLiveTokens),
    PURSE_WEBHOOK_WORKER: "off",
  };
  const servers = [];
  try {
    for (let index = 0; index < processes; index += 1) servers.push(await startPurse(env));
    const cpuBefore = await Promise.all(servers.map((server) => server.cpuMs()));
    console.log(
      `token-per-call: ${callsPerSecond} calls/s for ${seconds} s, a token before each, over ${processes} ` +
        `processes; /token per client ${tokenLimit}/min, flood limit ${floodLimit}/min per client id and ` +
        `address, at most ${maxLiveTokens} live tokens; hammer ${hammerPerSecond} wrong secrets/s. ` +
        `Load average at start: ${load()}`,
    );
    const started = Date.now();
    const report = await runTokenPerCall({
      urls: servers.map((server) => server.url),
      seconds,
      callsPerSecond,
      client: { id: "bench1", secret: "bench-secret" },
      address: "198.51.100.20",
      payout: {
        every: 40,
        body: (sequence) => ({
          wallet_from: walletNumber(1, sequence % 32),
          wallet_to: walletNumber(2, sequence % 32),
          amount: "0.01",
          payment_id: `token-per-call-${started}-${sequence}`,
        }),
      },
      hammer: { address: "203.0.113.99", perSecond: hammerPerSecond },
      databaseUrl: database.url,
      sampleEverySeconds: 5,
    });
    const cpuAfter = await Promise.all(servers.map((server) => server.cpuMs()));
    const cpuSeconds =
      cpuAfter.reduce((sum, after, index) => sum + after - (cpuBefore[index] ?? 0), 0) / 1000;
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `Purse processes used ${cpuSeconds.toFixed(1)} CPU-seconds (${((cpuSeconds / seconds) * 100).toFixed(0)} % ` +
        `of one core). Load average at the end: ${load()}`,
    );
    const refusedCalls = Object.entries({ ...report.tokenStatuses, ...report.callStatuses }).filter(
      ([status]) => !/(^| )200$/.test(status),
    );
    const guessesAdmitted = report.hammerStatuses["401"] ?? 0;
    const guessBound = floodLimit * Math.ceil(seconds / 60 + 1);
    const verdicts = [
      [`every token and call answered 200`, refusedCalls.length === 0],
      [
        `live tokens never above ${maxLiveTokens} (max ${report.maxLiveTokens})`,
        report.maxLiveTokens <= maxLiveTokens,
      ],
      [
        `the client's rows never above ${maxLiveTokens} (max ${report.maxClientRows})`,
        report.maxClientRows <= maxLiveTokens,
      ],
      [
        `the hammering address got at most ${guessBound} guesses (${guessesAdmitted}), the rest 429`,
        guessesAdmitted <= guessBound && (report.hammerStatuses["429"] ?? 0) > 0,
      ],
    ] as const;
    for (const [what, held] of verdicts) console.log(`${held ? "held" : "FAILED"}: ${what}`);
    if (verdicts.some(([, held]) => !held)) process.exitCode = 1;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  }
}

await main();
