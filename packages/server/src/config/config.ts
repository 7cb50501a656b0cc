import { z } from "zod";
import { trustProxySetting } from "./trust-proxy.ts";

/**
 * Configuration comes from the environment (contract: "Configuration is by environment"). Each bad
 * variable is reported on one line that names it, and the process does not start.
 */
const onOff = z
  .enum(["on", "off", "true", "false", "1", "0"], { message: "must be on or off" })
  .transform((value) => value === "on" || value === "true" || value === "1");

const url = (what: string) =>
  z.url({ message: `must be a URL (${what})` }).transform((value) => value.replace(/\/+$/, ""));

const environmentSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL (leave it unset for the embedded database)")
    .optional(),
  REDIS_URL: z
    .string()
    .refine(
      (value) => value.split(",").every((node) => /^rediss?:\/\/\S+$/.test(node.trim())),
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
  PURSE_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number of calls per minute" })
    .int()
    .min(1)
    .default(60),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PURSE_DATA_DIR: z.string().min(1).default("./.purse-data"),
  PURSE_SECRET_KEY: z.string().min(32, "must be at least 32 characters of random text").optional(),
  NODE_ENV: z.string().optional(),
  PURSE_TRUST_PROXY: trustProxySetting.optional(),
  PURSE_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits or : . _ -")
    .optional(),
});

export interface PurseConfig {
  /** `NODE_ENV=production`, the one production switch (contract: "Configuration"). */
  readonly production: boolean;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly payUrl: string;
  readonly captcha: boolean;
  readonly webhookAllowPrivate: boolean;
  /** Whether this process delivers webhooks (on by default; off for API-only processes). */
  readonly webhookWorker: boolean;
  readonly rateLimitPerMinute: number;
  readonly logLevel: string;
  readonly dataDir: string;
  readonly secretKey: string | undefined;
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
        return `${name}=${JSON.stringify(env[name] ?? "")}: ${issue.message}`;
      }),
    );
  }
  const value = parsed.data;
  const baseUrl = value.BASE_URL ?? `http://localhost:${value.PORT}`;
  return {
    production: value.NODE_ENV === "production",
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    port: value.PORT,
    host: value.HOST,
    baseUrl,
    payUrl: value.PAY_URL ?? `${baseUrl}/pay`,
    captcha: value.PURSE_CAPTCHA,
    webhookAllowPrivate: value.PURSE_WEBHOOK_ALLOW_PRIVATE,
    webhookWorker: value.PURSE_WEBHOOK_WORKER,
    rateLimitPerMinute: value.PURSE_RATE_LIMIT_PER_MINUTE,
    logLevel: value.LOG_LEVEL,
    dataDir: value.PURSE_DATA_DIR,
    secretKey: value.PURSE_SECRET_KEY,
    redisPrefix: value.PURSE_REDIS_PREFIX,
    trustProxy: value.PURSE_TRUST_PROXY ?? [],
  };
}
