import {
  inProcessEventBus,
  MemoryRateLimiter,
  MemoryRouteLock,
  type RateLimiter,
  type RouteLock,
  MemorySpentCaptchas,
  type SpentCaptchas,
  type TransactionEventBus,
} from "@purse/engine";
import type { PurseConfig } from "../config/config.ts";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { redisEventBus } from "./redis-event-bus.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";
import { RedisSpentCaptchas } from "./redis-spent-captchas.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";

export interface Coordination {
  readonly routeLock: RouteLock;
  readonly rateLimiter: RateLimiter;
  /** Captcha solutions already used (replays refused in every process). */
  readonly spentCaptchas: SpentCaptchas;
  readonly events: TransactionEventBus;
  readonly mode: "redis" | "in-process";
  /** True when every Redis node answers (always true in process). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Route locks and rate limits on Redis (one node, or a Redlock quorum of several) when REDIS_URL
 * is set; in process otherwise, which is only correct for a single Purse process.
 */
export async function openCoordination(config: PurseConfig): Promise<Coordination> {
  if (!config.redisUrl) {
    return {
      routeLock: new MemoryRouteLock(),
      rateLimiter: new MemoryRateLimiter({ limitPerMinute: config.rateLimitPerMinute }),
      spentCaptchas: new MemorySpentCaptchas(),
      events: inProcessEventBus(),
      mode: "in-process",
      ping: async () => true,
      close: async () => {},
    };
  }
  const clients = createRedisClients(config.redisUrl);
  // Commands are not queued while a node connects, so wait for a quorum before serving; a node
  // that is down does not stop the start (readyz reports it).
  await waitForRedis(clients, 5_000, Math.floor(clients.length / 2) + 1).catch(() => undefined);
  const prefix = config.redisPrefix;
  const routeLock = new RedlockRouteLock(clients, prefix ? { prefix } : {});
  const rateLimiter = new RedisRateLimiter(clients, {
    limitPerMinute: config.rateLimitPerMinute,
    ...(prefix ? { prefix } : {}),
  });
  const events = redisEventBus(config.redisUrl, prefix);
  return {
    routeLock,
    rateLimiter,
    spentCaptchas: new RedisSpentCaptchas(clients, prefix),
    events,
    mode: "redis",
    async ping() {
      const answers = await Promise.allSettled(clients.map((client) => client.ping()));
      return answers.every((answer) => answer.status === "fulfilled");
    },
    async close() {
      await routeLock.close();
      await rateLimiter.close?.();
      await events.close();
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}
