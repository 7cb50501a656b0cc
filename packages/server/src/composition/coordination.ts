import {
  inProcessEventBus,
  inProcessRevocationChannel,
  MemoryRateLimiter,
  MemoryRouteLock,
  MemorySpentCaptchas,
  type RateLimiter,
  type RateLimitOptions,
  type RevocationChannel,
  type RouteLock,
  type SpentCaptchas,
  type TransactionEventBus,
  tokenRouteLimits,
} from "@purse/engine";
import type { PurseConfig } from "../config/config.ts";
import { redactUrl } from "./open-database.ts";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { redisEventBus } from "./redis-event-bus.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";
import { redisRevocationChannel } from "./redis-revocation-channel.ts";
import { RedisSpentCaptchas } from "./redis-spent-captchas.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";

export interface Coordination {
  readonly routeLock: RouteLock;
  readonly rateLimiter: RateLimiter;
  /** Captcha solutions already used (replays refused in every process). */
  readonly spentCaptchas: SpentCaptchas;
  readonly events: TransactionEventBus;
  /** Token revocations heard by every process's token cache. */
  readonly revocations: RevocationChannel;
  readonly mode: "redis" | "in-process";
  /** True when a majority of the Redis nodes answer, as Redlock needs (always true in process). */
  ping(): Promise<boolean>;
  /** Each Redis node (password hidden) and whether it answers a PING now; empty in process. */
  nodes(): Promise<RedisNodeState[]>;
  close(): Promise<void>;
}

export interface RedisNodeState {
  readonly node: string;
  readonly up: boolean;
  /** Why it does not answer, e.g. ECONNREFUSED. */
  readonly error?: string;
}

/** Redlock decides with a majority of independent nodes; so does readiness. */
export const quorumOf = (nodes: number): number => Math.floor(nodes / 2) + 1;

/**
 * Route locks and rate limits on Redis (one node, or a Redlock quorum of several) when REDIS_URL
 * is set; in process otherwise, which is only correct for a single Purse process.
 */
export async function openCoordination(config: PurseConfig): Promise<Coordination> {
  if (!config.redisUrl) {
    return {
      routeLock: new MemoryRouteLock(),
      rateLimiter: new MemoryRateLimiter(rateLimitOptions(config)),
      spentCaptchas: new MemorySpentCaptchas(),
      events: inProcessEventBus(),
      revocations: inProcessRevocationChannel(),
      mode: "in-process",
      ping: async () => true,
      nodes: async () => [],
      close: async () => {},
    };
  }
  const clients = createRedisClients(config.redisUrl);
  const names = config.redisUrl
    .split(",")
    .map((url) => redactUrl(url.trim()))
    .filter(Boolean);
  const lastErrors = clients.map(() => "");
  clients.forEach((client, index) => {
    client.on("error", (error: NodeJS.ErrnoException) => {
      lastErrors[index] = error.code ?? error.message;
    });
  });
  const nodes = async (): Promise<RedisNodeState[]> => {
    const answers = await Promise.allSettled(clients.map((client) => client.ping()));
    return answers.map((answer, index) =>
      answer.status === "fulfilled"
        ? { node: names[index] ?? `node ${index + 1}`, up: true }
        : {
            node: names[index] ?? `node ${index + 1}`,
            up: false,
            error: lastErrors[index] || (answer.reason as Error).message,
          },
    );
  };
  // Commands are not queued while a node connects, so wait for a quorum before serving; a node
  // that is down does not stop the start (readyz reports it).
  await waitForRedis(clients, 5_000, quorumOf(clients.length)).catch(() => undefined);
  // Nodes still connecting once a quorum is in get a moment more, so the start's warning names
  // only nodes that are down, not a slower third one (seen under compose).
  await waitForRedis(clients, 1_000).catch(() => undefined);
  const prefix = config.redisPrefix;
  const routeLock = await RedlockRouteLock.open(clients, prefix ? { prefix } : {});
  const rateLimiter = new RedisRateLimiter(clients, {
    ...rateLimitOptions(config),
    ...(prefix ? { prefix } : {}),
  });
  const events = redisEventBus(config.redisUrl, prefix, clients);
  const revocations = redisRevocationChannel(config.redisUrl, clients, prefix);
  return {
    routeLock,
    rateLimiter,
    spentCaptchas: new RedisSpentCaptchas(clients, prefix),
    events,
    revocations,
    mode: "redis",
    async ping() {
      const states = await nodes();
      return states.filter((state) => state.up).length >= quorumOf(states.length);
    },
    nodes,
    async close() {
      await routeLock.close();
      await rateLimiter.close?.();
      await events.close();
      await revocations.close();
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}

/** Every route's budget is PURSE_RATE_LIMIT_PER_MINUTE, but the tokens issued per client. */
function rateLimitOptions(config: PurseConfig): RateLimitOptions {
  return {
    limitPerMinute: config.rateLimitPerMinute,
    routeLimits: tokenRouteLimits(config.tokenRateLimitPerMinute),
  };
}
