/**
 * `tsx bench/redis-fold-probe.ts`: what folding the rate limit into the route lock's Redis script
 * could save per transfer. 32 concurrent callers on the bench's Redis, for a few seconds each:
 * (a) today's three round trips: the sliding-window script (RedisRateLimiter), Redlock's acquire
 * and its release; (b) the folded form: one script that counts and SET NX PX, then the release.
 * Prints calls/s and the mean time per call of both. Redlock's own bookkeeping (vote counting,
 * drift) is not in (a), so (a) − (b) is an upper bound on what the fold saves.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { RedisRateLimiter } from "../packages/server/src/composition/redis-rate-limiter.ts";
import { RedlockRouteLock } from "../packages/server/src/composition/redlock-route-lock.ts";

const redisUrl = process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const seconds = Number(process.env["PURSE_BENCH_SECONDS"] ?? 5);
const callers = 32;
const prefix = `fold-probe-${process.pid}`;

const folded = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('SET', KEYS[2], ARGV[4], 'NX', 'PX', ARGV[5]) then return 1 end
return -1`;
const release = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

async function run(name: string, once: (caller: number, sequence: number) => Promise<void>): Promise<void> {
  const until = performance.now() + seconds * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      for (let sequence = 0; performance.now() < until; sequence += 1) {
        await once(caller, sequence);
        calls += 1;
      }
    }),
  );
  console.log(
    `${name}: ${(calls / seconds).toFixed(0)} calls/s, ${((seconds * 1000 * callers) / calls).toFixed(2)} ms per call (${callers} callers)`,
  );
}

const client = new Redis(redisUrl);
const limiter = new RedisRateLimiter([client], { limitPerMinute: 1_000_000_000, prefix });
const lock = new RedlockRouteLock([client], { prefix });
client.defineCommand("foldProbe", { numberOfKeys: 2, lua: folded });
client.defineCommand("foldRelease", { numberOfKeys: 1, lua: release });
const scripted = client as Redis & {
  foldProbe(...args: (string | number)[]): Promise<number>;
  foldRelease(key: string, token: string): Promise<number>;
};

for (let round = 0; round < 2; round += 1) {
  await run("three round trips (rate limit, Redlock acquire, release)", async (caller, sequence) => {
    await limiter.consume(caller, "transfer");
    await lock.run([`purse:lock:transfer:${caller}:${sequence}`], 10_000, async () => undefined);
  });
  await run("folded (count + SET NX PX in one script, release)", async (caller, sequence) => {
    const token = randomUUID();
    const key = `${prefix}:purse:lock:transfer:${caller}:${sequence}`;
    await scripted.foldProbe(
      `${prefix}:purse:rate:transfer:${caller}`,
      key,
      Date.now(),
      60_000,
      1e9,
      token,
      10_000,
    );
    await scripted.foldRelease(key, token);
  });
}
await lock.close();
await limiter.close();
client.disconnect();
