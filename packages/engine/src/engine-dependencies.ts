import type { Actor } from "./auth/actor.ts";
import type { hashQueueFull } from "./auth/hash-queue.ts";
import type { TokenRevocation, VerifiedToken } from "./auth/token-cache.ts";
import type { Captcha } from "./captcha/index.ts";
import type { TransactionEventBus } from "./events/transaction-event-types.ts";
import type { SecretBox } from "./keys/secret-keyring.ts";
import type { RouteLock } from "./locks/index.ts";
import type { EngineMetrics } from "./metrics/index.ts";
import type { Database } from "./persistence/database.ts";
import type { RateLimiter } from "./rate-limit/rate-limiter.ts";

/** Everything the use cases need from the outside world, built once by the composition root. */
export interface EngineDependencies {
  readonly db: Database;
  readonly secretBox: SecretBox;
  readonly routeLock: RouteLock;
  readonly rateLimiter: RateLimiter;
  /** The hosted page's captcha (ALTCHA), or the disabled one for automated tests. */
  readonly captcha: Captcha;
  /** Where committed transaction changes are announced (subscriptions listen here). */
  readonly events: TransactionEventBus;
  readonly now: () => Date;
  readonly options: EngineOptions;
  /** Verified bearer tokens for a short time (auth/token-cache.ts); without it every call asks the database. */
  readonly tokenCache?: TokenCachePort;
  /** Client secrets verified lately (auth/verified-secrets.ts); without it every `/token` call hashes. */
  readonly verifiedSecrets?: VerifiedSecretsPort;
  /** A bound on client-secret hashes at once (auth/hash-queue.ts); without it `/token` never answers busy. */
  readonly secretHashes?: SecretHashesPort;
  /** Money moved and refusals, for /metrics (metrics/engine-metrics.ts); without it nothing is counted. */
  readonly metrics?: EngineMetrics;
  /**
   * Test mode's engine beside this live one (contract: "Test mode"): `db.testMode` and ports of its
   * own, chosen per call by the credential's `test_` mark (mode/caller.ts). Absent on test mode's
   * engine itself, and where a deployment runs without test mode.
   */
  readonly testMode?: EngineDependencies;
}

/** What `/token` asks of the memory of verified client secrets. */
interface VerifiedSecretsPort {
  /** The stored hash `secret` matched for `clientId` lately, or null. */
  recall(clientId: string, secret: string): string | null;
  remember(clientId: string, secret: string, storedHash: string): void;
}

/** What `/token` asks of the bound on slow hashes: run one, or say the queue is full. */
interface SecretHashesPort {
  run<T>(hash: () => Promise<T>): Promise<T | typeof hashQueueFull>;
}

/**
 * What the use cases ask of a token cache. A port, not the class: the composition root builds
 * auth/token-cache.ts's TokenCache, a test may hand in anything that answers the same.
 */
interface TokenCachePort {
  verify(
    tokenHash: string,
    now: Date,
    lookUp: () => Promise<VerifiedToken | undefined>,
  ): Promise<Actor | undefined>;
  revoke(revocation: TokenRevocation): Promise<void>;
}

export interface EngineOptions {
  /** Base of checkout links: `<payUrl>/<token>`. */
  readonly payUrl: string;
  /** Lifetime of an access token in seconds (the spec's example: 30 days). */
  readonly tokenLifetimeSeconds: number;
  /**
   * Live access tokens one client may hold (PURSE_MAX_LIVE_TOKENS): issuing one more revokes its
   * oldest, so a client that asks a token before every call keeps the token table bounded.
   */
  readonly maxLiveTokens: number;
  /** Lifetime of a dashboard session (`signIn`): a working day, then the merchant signs in again. */
  readonly sessionLifetimeSeconds: number;
  /** Lifetime of a checkout link (contract: 30 minutes). */
  readonly checkoutLifetimeMs: number;
  /** How long a route lock is held at most; it covers one request. */
  readonly routeLockTtlMs: number;
  /** Checkout redirect and notification URLs must be `https` (NODE_ENV=production). */
  readonly requireHttpsUrls: boolean;
  /**
   * PURSE_WEBHOOK_ALLOW_PRIVATE: live webhook endpoints may then be `http` and loopback or private
   * addresses. Off (absent): only `https` to public hosts.
   */
  readonly webhookAllowPrivate?: boolean;
  /**
   * Group commit of transfers (ledger/movement-queue.ts): at most `inFlight` transfer transactions
   * per database handle, those that arrive meanwhile leaving together, up to `batchSize` in one
   * transaction. Absent or null: each transfer in a transaction of its own.
   */
  readonly movementBatches?: MovementBatches | null;
  /**
   * How many days an API Idempotency-Key answers retries (PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS,
   * 30 when absent): the pruning job's bound, which a test clock's move applies at once.
   */
  readonly idempotencyKeyDays?: number;
}

export interface MovementBatches {
  readonly inFlight: number;
  readonly batchSize: number;
  /**
   * How long the batch in flight holds back the next (ledger/movement-queue.ts; 50 ms when absent):
   * past it, a batch waiting for a row held elsewhere lets others leave beside it.
   */
  readonly stallMs?: number;
  /**
   * How many waiting transfers make a batch worth sending beside the one in flight (8 when absent,
   * at most `batchSize`): fewer wait for it to commit and leave together.
   */
  readonly leaveAt?: number;
}

export const defaultEngineOptions: Omit<EngineOptions, "payUrl"> = {
  tokenLifetimeSeconds: 2_592_000,
  maxLiveTokens: 1_000,
  sessionLifetimeSeconds: 8 * 3600,
  checkoutLifetimeMs: 30 * 60 * 1000,
  routeLockTtlMs: 10_000,
  requireHttpsUrls: false,
};
