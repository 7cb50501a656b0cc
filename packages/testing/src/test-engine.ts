import {
  defaultEngineOptions,
  disabledCaptcha,
  type EngineDependencies,
  inProcessEventBus,
  MemoryRateLimiter,
  MemoryRouteLock,
  type RateLimiter,
  type RouteLock,
  secretBoxFromKey,
  seedFixture,
  type TransactionEventBus,
} from "@purse/engine";
import { inject } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

declare module "vitest" {
  /** Set by the root vitest globalSetup (test/support/global-setup.ts). */
  export interface ProvidedContext {
    templateDatabase: string;
    /**
     * Copies of it with the sample world already seeded, one per secret key: `engine` under
     * `testEngineSecretKey` (createTestEngine), `server` under the key the `purse serve` tests use.
     */
    sampleWorldTemplates: { engine: string; server: string };
  }
}

export interface TestEngine {
  readonly deps: EngineDependencies;
  readonly database: TestDatabase;
  close(): Promise<void>;
}

export interface TestEngineOptions {
  /** The fixture to seed (default: the sample world); `null` seeds nothing. */
  fixture?: unknown;
  /**
   * Route locks and rate limits: in process (default), or given by the caller, e.g. the Redis
   * ones from @purse/server's composition (the engine itself holds no Redis adapter).
   */
  coordination?: "memory" | TestCoordination;
  rateLimitPerMinute?: number;
  now?: () => Date;
  events?: TransactionEventBus;
  /** Sees every SQL statement (to count queries). */
  onQuery?: (line: string) => void;
}

export interface TestCoordination {
  readonly routeLock: RouteLock;
  readonly rateLimiter: RateLimiter;
  close(): Promise<void>;
}

export const testRedisUrl = process.env["PURSE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";
/** The key the test engine seals secrets with (and the sample-world template was seeded under). */
export const testEngineSecretKey = "test-secret-key-of-at-least-32-characters";

/** An engine over its own fresh database (copied from the run's migrated template). */
export async function createTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const secretBox = secretBoxFromKey(testEngineSecretKey);
  // The sample world as it is comes seeded in its own template; any other fixture is seeded here.
  const { fixture } = options;
  const template = fixture === undefined ? inject("sampleWorldTemplates").engine : inject("templateDatabase");
  const database = await createTestDatabase(template, 20, options.onQuery);
  if (fixture !== undefined && fixture !== null) await seedFixture(database.db, secretBox, fixture);
  // Whether Citus distributed the tables, asked once before the first movement, as `purse serve`
  // asks at start (the engine's persistence/citus-routing.ts).
  await database.db.distributed();
  const limit = options.rateLimitPerMinute ?? 100_000;
  const coordination =
    options.coordination && options.coordination !== "memory"
      ? options.coordination
      : inProcessCoordination(limit);
  const { routeLock, rateLimiter } = coordination;
  const deps: EngineDependencies = {
    db: database.db,
    secretBox,
    routeLock,
    rateLimiter,
    captcha: disabledCaptcha,
    events: options.events ?? inProcessEventBus(),
    now: options.now ?? (() => new Date()),
    options: { ...defaultEngineOptions, payUrl: "http://localhost/pay" },
  };
  return {
    deps,
    database,
    async close() {
      await coordination.close();
      await database.drop();
    },
  };
}

function inProcessCoordination(limitPerMinute: number): TestCoordination {
  const routeLock = new MemoryRouteLock();
  const rateLimiter = new MemoryRateLimiter({ limitPerMinute });
  return {
    routeLock,
    rateLimiter,
    async close() {
      await routeLock.close();
      await rateLimiter.close();
    },
  };
}
