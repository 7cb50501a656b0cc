import {
  altchaCaptcha,
  type Database,
  type DeploymentSecretBox,
  defaultEngineOptions,
  disabledCaptcha,
  type EngineDependencies,
  HashQueue,
  openSecretBox,
  TokenCache,
  VerifiedSecrets,
} from "@purse/engine";
import type { PurseConfig } from "../config/config.ts";
import { createPurseMetrics, type PurseMetrics } from "../metrics/index.ts";
import { activeTracing } from "../tracing/active-tracing.ts";
import { type Coordination, type ModeCoordination, openCoordination } from "./coordination.ts";
import { openConfiguredDatabase } from "./open-database.ts";

/**
 * How long a client secret verified by this process skips its slow hash (auth/verified-secrets.ts):
 * a client asking a token before every call is hashed once in ten minutes per process, not per call.
 */
const verifiedSecretMs = 10 * 60_000;

/**
 * Slow hashes at once, and waiting (auth/hash-queue.ts): client secrets (scrypt) and users'
 * passwords (argon2id: the dashboard's sign-in, the hosted page's payer) alike. Two: half of libuv's default
 * thread pool, so file and DNS jobs always find a thread, and two scrypts already fill two cores;
 * at 16 MiB each, what hashes hold at once stays at 32 MiB, however many wait (a waiting call
 * holds a closure, not a hash). 256 waiting are about five seconds of hashing: a burst of a few
 * hundred clients new to this process (every client after a restart) waits rather than fails,
 * as a client library that does not retry a 429 from `/token` would; past that the next is
 * answered 429 with Retry-After, not queued longer.
 */
const secretHashesAtOnce = { running: 2, waiting: 256 } as const;

/** Everything a serving process holds open, built once at start and closed once at shutdown. */
export interface Runtime {
  readonly config: PurseConfig;
  readonly db: Database;
  readonly coordination: Coordination;
  readonly deps: EngineDependencies;
  /** What /metrics shows (metrics/purse-metrics.ts); the engine reports into it through `deps.metrics`. */
  readonly metrics: PurseMetrics;
  close(): Promise<void>;
}

export async function openRuntime(config: PurseConfig): Promise<Runtime> {
  const db = await openConfiguredDatabase(config);
  let coordination: Coordination | null = null;
  try {
    await db.migrate();
    coordination = await openCoordination(config);
    const secretBox = await openSecretBox(db, config.secretKey, config.previousSecretKeys);
    warnAboutStoredKey(config, secretBox);
    const metrics = createPurseMetrics(db, coordination);
    const liveDeps: EngineDependencies = {
      db,
      secretBox,
      routeLock: activeTracing()?.routeLock(coordination.routeLock) ?? coordination.routeLock,
      rateLimiter: coordination.rateLimiter,
      events: coordination.events,
      captcha: config.captcha
        ? altchaCaptcha(secretBox.derive("captcha"), coordination.spentCaptchas)
        : disabledCaptcha,
      metrics: metrics.engine,
      now: () => new Date(),
      options: {
        ...defaultEngineOptions,
        payUrl: config.payUrl,
        requireHttpsUrls: config.production,
        webhookAllowPrivate: config.webhookAllowPrivate,
        movementBatches: config.movementBatches,
        maxLiveTokens: config.maxLiveTokens,
        idempotencyKeyDays: config.retention.idempotencyKeysDays,
      },
      tokenCache: new TokenCache({ ttlMs: config.tokenCacheMs, channel: coordination.revocations }),
      verifiedSecrets: new VerifiedSecrets({ ttlMs: verifiedSecretMs }),
      secretHashes: new HashQueue(secretHashesAtOnce),
    };
    // Whether Citus distributed the tables (persistence/citus-routing.ts in the engine), asked once
    // here for both schemas; a database that cannot be reached yet is asked again on first use.
    await Promise.all([db.distributed(), db.testMode?.distributed()]).catch(() => undefined);
    // Test mode only where its connections reach its schema: off, never pointed at live data.
    const testModeOff = await db.testModeUnavailable();
    if (testModeOff)
      console.warn(`Purse: test mode is off: ${testModeOff} (docs/deploy.md, "Test mode behind a proxy").`);
    // Test mode's locks, limits and live events are opened only when it is on (coordination.ts).
    const deps: EngineDependencies = testModeOff
      ? liveDeps
      : { ...liveDeps, testMode: testModeDependencies(liveDeps, await coordination.testMode()) };
    const opened = coordination;
    return {
      config,
      db,
      coordination,
      deps,
      metrics,
      async close() {
        await opened.close();
        await db.close();
      },
    };
  } catch (error) {
    await coordination?.close();
    await db.close();
    throw error;
  }
}

/**
 * Test mode's engine (contract: "Test mode"): the live one's options and secrets on test mode's
 * schema (`db.testMode`) and its own locks, limits and events. No token cache: each test call reads
 * its merchant's test clock anyway (mode/caller.ts), so a cache would save nothing.
 */
function testModeDependencies(live: EngineDependencies, coordination: ModeCoordination): EngineDependencies {
  const { tokenCache: _cache, testMode: _test, ...shared } = live;
  if (!live.db.testMode) throw new Error("the database has no test mode");
  return {
    ...shared,
    db: live.db.testMode,
    // Each test movement in a transaction of its own: a batch would mix merchants' test clocks.
    options: { ...live.options, movementBatches: null },
    routeLock: activeTracing()?.routeLock(coordination.routeLock) ?? coordination.routeLock,
    rateLimiter: coordination.rateLimiter,
    events: coordination.events,
  };
}

/**
 * A key kept in the database protects nothing from whoever holds a copy of it. Production refuses
 * to start that way (config); elsewhere on PostgreSQL, one line on stderr says what to do.
 */
function warnAboutStoredKey(config: PurseConfig, box: DeploymentSecretBox): void {
  if (config.databaseUrl === undefined) return; // the embedded demo keeps everything in one local folder
  if (box.keySource === "database") {
    console.warn(
      "Purse: PURSE_SECRET_KEY is not set, so the key sealing form tokens and webhook secrets is stored in the same database; set PURSE_SECRET_KEY (openssl rand -base64 32) and run `purse keys rotate` (see docs/security.md).",
    );
  } else if (box.databaseKeyStored) {
    console.warn(
      "Purse: a secret key generated before PURSE_SECRET_KEY was set is still stored in the database; run `purse keys rotate` to re-seal everything under PURSE_SECRET_KEY and delete it.",
    );
  }
}
