import { defaultLeaveAt, defaultPoolSize, type MovementBatches } from "@purse/engine";
import { z } from "zod";
import { redactCredentials } from "./redact-credentials.ts";
import { trustProxySetting } from "./trust-proxy.ts";

/**
 * Configuration comes from the environment (contract: "Configuration is by environment"). Each bad
 * variable is reported on one line that names it, and the process does not start.
 */
const onOff = z
  .enum(["on", "off", "true", "false", "1", "0"], { message: "must be on or off" })
  .transform((value) => value === "on" || value === "true" || value === "1");

const url = (what: string) =>
  z
    .url({ protocol: /^https?$/, message: `must be an http:// or https:// URL (${what})` })
    // Zod runs this check even when the URL check above failed: an unparseable value is that
    // check's to report (one line per variable), not a TypeError thrown from here.
    .refine((value) => {
      const parsed = URL.parse(value);
      return parsed === null || (parsed.username === "" && parsed.password === "");
    }, "must not carry a user name or password (it is printed and put into every payment link)")
    .transform((value) => value.replace(/\/+$/, ""));

const wholeNumber = (what: string) =>
  z.coerce
    .number({ message: `must be a whole number (${what})` })
    .int()
    .min(1, `must be at least 1 (${what})`);

const secretKeyText = z
  .string()
  .min(32, "must be at least 32 characters of random text (e.g. openssl rand -base64 32)")
  .regex(/^[^,\s]+$/, "must not contain commas or spaces");

const environmentSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL (leave it unset for the embedded database)")
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL of a read replica of DATABASE_URL")
    .optional(),
  PURSE_DATABASE_POOL_SIZE: wholeNumber("pooled PostgreSQL connections per process")
    .max(1_000)
    .default(defaultPoolSize),
  PURSE_DATABASE_PREPARED: onOff.default(true),
  PURSE_MOVEMENT_BATCHES: z.coerce
    .number({ message: "must be a whole number (transfer transactions in flight; 0: each transfer alone)" })
    .int()
    .min(0, "must be 0 or more (transfer transactions in flight; 0: each transfer alone)")
    .max(1_000)
    .optional(),
  PURSE_MOVEMENT_BATCH_SIZE: wholeNumber("transfers one transaction may hold").min(1).max(1_000).default(32),
  PURSE_MOVEMENT_BATCH_LEAVE_AT: wholeNumber("waiting transfers that send a batch beside the one in flight")
    .min(1)
    .max(1_000)
    .default(defaultLeaveAt),
  REDIS_URL: z
    .string()
    .refine(
      (value) =>
        value.split(",").every((node) => /^rediss?:\/\/\S+$/.test(node.trim()) && URL.canParse(node.trim())),
      "must be a redis:// URL or a comma-separated list of them",
    )
    .optional(),
  PORT: z.coerce.number({ message: "must be a port number" }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  BASE_URL: url("the address clients use, e.g. https://pay.example.com").optional(),
  PAY_URL: url("the hosted payment page base, default BASE_URL/pay").optional(),
  PURSE_CAPTCHA: onOff.default(true),
  PURSE_WEBHOOK_ALLOW_PRIVATE: onOff.default(false),
  PURSE_WEBHOOK_WORKER: onOff.default(true),
  PURSE_WEBHOOK_CONCURRENCY: wholeNumber("deliveries in flight at once").default(16),
  PURSE_WEBHOOK_PER_RECEIVER: wholeNumber("deliveries in flight to one receiver").default(4),
  PURSE_PRUNE_TOKENS_AFTER_DAYS: wholeNumber("days").default(7),
  PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS: wholeNumber("days").default(30),
  PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS: wholeNumber("days").default(30),
  // Contract, "Events": kept at least 90 days.
  PURSE_EVENT_RETENTION_DAYS: wholeNumber("days").min(90, "must be at least 90 (days)").default(90),
  PURSE_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number of calls per minute" })
    .int()
    .min(1)
    .default(60),
  PURSE_TOKEN_RATE_LIMIT_PER_MINUTE: wholeNumber("tokens one client may be issued per minute").default(600),
  PURSE_MAX_LIVE_TOKENS: wholeNumber("live access tokens one client may hold").max(1_000_000).default(1_000),
  PURSE_TOKEN_CACHE_MS: z.coerce
    .number({ message: "must be a whole number of milliseconds" })
    .int()
    .min(0)
    .max(60_000)
    .default(1_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PURSE_DATA_DIR: z.string().min(1).default("./.purse-data"),
  PURSE_SECRET_KEY: secretKeyText.optional(),
  PURSE_SECRET_KEY_PREVIOUS: z
    .string()
    .transform((value) => value.split(",").map((key) => key.trim()))
    .pipe(z.array(secretKeyText, { message: "must be keys of at least 32 characters, separated by commas" }))
    .optional(),
  PURSE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters of random text").optional(),
  NODE_ENV: z.string().optional(),
  PURSE_TRUST_PROXY: trustProxySetting.optional(),
  // Cheap password and secret hashes for test suites (engine: secrets/hash-cost.ts); refused in production.
  PURSE_HASH_COST: z.enum(["production", "test"], { message: "must be production or test" }).optional(),
  PURSE_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits or : . _ -")
    .optional(),
});

const secretVariables = new Set(["PURSE_SECRET_KEY", "PURSE_SECRET_KEY_PREVIOUS", "PURSE_METRICS_TOKEN"]);

export interface PurseConfig {
  /** `NODE_ENV=production`, the one production switch (contract: "Configuration"). */
  readonly production: boolean;
  readonly databaseUrl: string | undefined;
  /** DATABASE_READ_URL: a read replica for history, search, statements and lists (contract: "Read replica"). */
  readonly databaseReadUrl: string | undefined;
  /** PURSE_DATABASE_POOL_SIZE: PostgreSQL connections this process may hold (docs/benchmark.md). */
  readonly databasePoolSize: number;
  /** PURSE_DATABASE_PREPARED: hot statements as named prepared statements (off for an old PgBouncer). */
  readonly databasePrepared: boolean;
  /**
   * PURSE_MOVEMENT_BATCHES and PURSE_MOVEMENT_BATCH_SIZE: group commit of transfers
   * (docs/benchmark.md, "Group commit"); null when off (0).
   */
  readonly movementBatches: MovementBatches | null;
  readonly redisUrl: string | undefined;
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly payUrl: string;
  readonly captcha: boolean;
  readonly webhookAllowPrivate: boolean;
  /** Whether this process delivers webhooks (on by default; off for API-only processes). */
  readonly webhookWorker: boolean;
  /** PURSE_WEBHOOK_CONCURRENCY and PURSE_WEBHOOK_PER_RECEIVER: deliveries in flight per process. */
  readonly webhookConcurrency: number;
  readonly webhookPerReceiver: number;
  /** What the hourly prune keeps (see pruneTables in the engine and docs/operations.md). */
  readonly retention: {
    readonly tokensDays: number;
    readonly webhookAttemptsDays: number;
    readonly idempotencyKeysDays: number;
    /** PURSE_EVENT_RETENTION_DAYS: endpoint events, with their deliveries and attempts. */
    readonly eventsDays: number;
  };
  readonly rateLimitPerMinute: number;
  /** PURSE_TOKEN_RATE_LIMIT_PER_MINUTE: tokens `/token` issues one client per minute, from any address. */
  readonly tokenRateLimitPerMinute: number;
  /** PURSE_MAX_LIVE_TOKENS: live tokens one client holds at most; one more revokes its oldest. */
  readonly maxLiveTokens: number;
  /** PURSE_TOKEN_CACHE_MS: how long a verified token skips the database (0: never); the bound on a lost revocation message. */
  readonly tokenCacheMs: number;
  readonly logLevel: string;
  readonly dataDir: string;
  /** PURSE_SECRET_KEY: seals new secrets. Required in production (see readConfig). */
  readonly secretKey: string | undefined;
  /** PURSE_SECRET_KEY_PREVIOUS: older keys, still read until `purse keys rotate` re-seals under the current one. */
  readonly previousSecretKeys: readonly string[];
  /** PURSE_METRICS_TOKEN: when set, `/metrics` needs it as a bearer token. */
  readonly metricsToken: string | undefined;
  /** Keeps deployments that share Redis apart (locks and rate-limit counters). */
  readonly redisPrefix: string | undefined;
  /** PURSE_TRUST_PROXY: proxies whose X-Forwarded-For gives the client's address; none by default. */
  readonly trustProxy: readonly string[];
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly lines: readonly string[]) {
    super(lines.join("\n"));
  }
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): PurseConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "environment");
        // A rejected secret is still a secret: name it, never echo it.
        const shown = secretVariables.has(name)
          ? "(hidden)"
          : JSON.stringify(redactCredentials(env[name] ?? ""));
        return `${name}=${shown}: ${issue.message}`;
      }),
    );
  }
  const value = parsed.data;
  if (value.NODE_ENV === "production" && !value.PURSE_SECRET_KEY) {
    // Without it the key would be generated into the very database whose secrets it protects.
    throw new ConfigError([
      'PURSE_SECRET_KEY="": required when NODE_ENV=production (at least 32 characters of random text, e.g. openssl rand -base64 32)',
    ]);
  }
  if (value.NODE_ENV === "production" && value.PURSE_HASH_COST === "test") {
    throw new ConfigError([
      'PURSE_HASH_COST="test": not when NODE_ENV=production (test hashes take microseconds to guess against)',
    ]);
  }
  if (value.DATABASE_READ_URL && !value.DATABASE_URL) {
    // A replica of the embedded database cannot exist: refuse rather than ignore the setting.
    throw new ConfigError([
      "DATABASE_READ_URL: needs DATABASE_URL (a replica of the embedded database cannot exist)",
    ]);
  }
  const baseUrl = value.BASE_URL ?? `http://localhost:${value.PORT}`;
  return {
    production: value.NODE_ENV === "production",
    databaseUrl: value.DATABASE_URL,
    databaseReadUrl: value.DATABASE_READ_URL,
    databasePoolSize: value.PURSE_DATABASE_POOL_SIZE,
    databasePrepared: value.PURSE_DATABASE_PREPARED,
    movementBatches: movementBatches(value),
    redisUrl: value.REDIS_URL,
    port: value.PORT,
    host: value.HOST,
    baseUrl,
    payUrl: value.PAY_URL ?? `${baseUrl}/pay`,
    captcha: value.PURSE_CAPTCHA,
    webhookAllowPrivate: value.PURSE_WEBHOOK_ALLOW_PRIVATE,
    webhookWorker: value.PURSE_WEBHOOK_WORKER,
    webhookConcurrency: value.PURSE_WEBHOOK_CONCURRENCY,
    webhookPerReceiver: value.PURSE_WEBHOOK_PER_RECEIVER,
    retention: {
      tokensDays: value.PURSE_PRUNE_TOKENS_AFTER_DAYS,
      webhookAttemptsDays: value.PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS,
      idempotencyKeysDays: value.PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS,
      eventsDays: value.PURSE_EVENT_RETENTION_DAYS,
    },
    rateLimitPerMinute: value.PURSE_RATE_LIMIT_PER_MINUTE,
    tokenRateLimitPerMinute: value.PURSE_TOKEN_RATE_LIMIT_PER_MINUTE,
    maxLiveTokens: value.PURSE_MAX_LIVE_TOKENS,
    tokenCacheMs: value.PURSE_TOKEN_CACHE_MS,
    logLevel: value.LOG_LEVEL,
    dataDir: value.PURSE_DATA_DIR,
    secretKey: value.PURSE_SECRET_KEY,
    previousSecretKeys: value.PURSE_SECRET_KEY_PREVIOUS ?? [],
    metricsToken: value.PURSE_METRICS_TOKEN,
    redisPrefix: value.PURSE_REDIS_PREFIX,
    trustProxy: value.PURSE_TRUST_PROXY ?? [],
  };
}

/**
 * Transfer transactions in flight unless told: two fewer than the pool (reads and the other
 * movements keep connections of their own), at least one; one on the embedded database, whose one
 * connection serves one transaction at a time.
 */
function movementBatches(value: z.infer<typeof environmentSchema>): PurseConfig["movementBatches"] {
  const inFlight =
    value.PURSE_MOVEMENT_BATCHES ??
    (value.DATABASE_URL === undefined ? 1 : Math.max(1, value.PURSE_DATABASE_POOL_SIZE - 2));
  return inFlight === 0
    ? null
    : {
        inFlight,
        batchSize: value.PURSE_MOVEMENT_BATCH_SIZE,
        leaveAt: value.PURSE_MOVEMENT_BATCH_LEAVE_AT,
      };
}
