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
import { connectionNameOf, createRedisClients, waitForRedis } from "./redis-clients.ts";
import { redisEventBus } from "./redis-event-bus.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";
import { redisRevocationChannel } from "./redis-revocation-channel.ts";
import { RedisSpentCaptchas } from "./redis-spent-captchas.ts";
import { openRedisSubscriptions } from "./redis-subscriptions.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";

/** What one mode's calls lock, limit and publish with (contract: "Test mode"). */
export interface ModeCoordination {
  readonly routeLock: RouteLock;
  readonly rateLimiter: RateLimiter;
  readonly events: TransactionEventBus;
}

/** The live mode's coordination, and what both modes share: one set of connections per process. */
export interface Coordination extends ModeCoordination {
  /** Captcha solutions already used (replays refused in every process). */
  readonly spentCaptchas: SpentCaptchas;
  /** Token revocations heard by every process's token cache. */
  readonly revocations: RevocationChannel;
  readonly mode: "redis" | "in-process";
  /** True when a majority of the Redis nodes answer, as Redlock needs (always true in process). */
  ping(): Promise<boolean>;
  /** Each Redis node (password hidden) and whether it answers a PING now; empty in process. */
  nodes(): Promise<RedisNodeState[]>;
  /**
   * Test mode's route lock, rate limiter and event bus on the same connections, under the prefix
   * `<prefix>:test` (`test` without one): test and live wallets and users share ids, never a lock,
   * a window or a channel. No revocation channel: test mode has no token cache. Opened on the
   * first call only (the runtime calls it when test mode is on); `close` closes them too.
   */
  testMode(): Promise<ModeCoordination>;
  /** Everything opened, test mode's adapters included. */
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

/** Test mode's prefix beside the live one's (`PURSE_REDIS_PREFIX`). */
export const testModePrefix = (prefix: string | undefined): string => (prefix ? `${prefix}:test` : "test");

type ClosableMode = ModeCoordination & { close(): Promise<void> };

/**
 * Route locks and rate limits on Redis (one node, or a Redlock quorum of several) when REDIS_URL
 * is set; in process otherwise, which is only correct for a single Purse process.
 */
export async function openCoordination(config: PurseConfig): Promise<Coordination> {
  if (!config.redisUrl) {
    const openMode = async (): Promise<ClosableMode> => {
      const rateLimiter = new MemoryRateLimiter(rateLimitOptions(config));
      return {
        routeLock: new MemoryRouteLock(),
        rateLimiter,
        events: inProcessEventBus(),
        close: () => rateLimiter.close(),
      };
    };
    const live = await openMode();
    const test = onceOpened(openMode);
    return {
      ...live,
      spentCaptchas: new MemorySpentCaptchas(),
      revocations: inProcessRevocationChannel(),
      mode: "in-process",
      ping: async () => true,
      nodes: async () => [],
      testMode: test.open,
      async close() {
        await test.close();
        await live.close();
      },
    };
  }
  const prefix = config.redisPrefix;
  // One client per node for every command of both modes, one subscription connection per node
  // for every channel of both modes: two connections per node and process, whatever is on.
  const clients = createRedisClients(config.redisUrl, connectionNameOf("commands", prefix));
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
  const subscriptions = openRedisSubscriptions(clients, connectionNameOf("subscriptions", prefix));
  const openMode = async (modePrefix: string | undefined): Promise<ClosableMode> => {
    const routeLock = new RedlockRouteLock(clients, modePrefix ? { prefix: modePrefix } : {});
    const rateLimiter = new RedisRateLimiter(clients, {
      ...rateLimitOptions(config),
      ...(modePrefix ? { prefix: modePrefix } : {}),
    });
    return {
      routeLock,
      rateLimiter,
      events: redisEventBus(clients, subscriptions, modePrefix),
      async close() {
        await routeLock.close();
        await rateLimiter.close();
      },
    };
  };
  const live = await openMode(prefix);
  const test = onceOpened(() => openMode(testModePrefix(prefix)));
  const revocations = redisRevocationChannel(clients, subscriptions, prefix);
  return {
    ...live,
    spentCaptchas: new RedisSpentCaptchas(clients, prefix),
    revocations,
    mode: "redis",
    async ping() {
      const states = await nodes();
      return states.filter((state) => state.up).length >= quorumOf(states.length);
    },
    nodes,
    testMode: test.open,
    async close() {
      await test.close();
      await live.close();
      await revocations.close();
      await subscriptions.close();
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}

/** `open` opens once and answers the same afterwards; `close` closes it if it was opened. */
function onceOpened(open: () => Promise<ClosableMode>): {
  open(): Promise<ModeCoordination>;
  close(): Promise<void>;
} {
  let opened: Promise<ClosableMode> | null = null;
  return {
    open: () => {
      opened ??= open();
      return opened;
    },
    close: async () => {
      await (await opened?.catch(() => null))?.close();
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
