import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import {
  type Database,
  defaultEngineOptions,
  disabledCaptcha,
  type EngineDependencies,
  inProcessEventBus,
  MemoryRateLimiter,
  MemoryRouteLock,
  openSecretBox,
} from "@purse/engine";
import { readConfig } from "../config/config.ts";

/**
 * The engine for one operator command. Locks and limits are in process: the command is one call,
 * and what keeps two runs (or a run and a server) from moving money twice is the idempotency key,
 * decided by the database's unique index, not a route lock.
 */
export async function operatorEngine(
  db: Database,
): Promise<{ deps: EngineDependencies; close(): Promise<void> }> {
  const config = readConfig();
  const routeLock = new MemoryRouteLock();
  const rateLimiter = new MemoryRateLimiter({ limitPerMinute: 1_000_000 });
  const live: EngineDependencies = {
    db,
    secretBox: await openSecretBox(db, config.secretKey),
    routeLock,
    rateLimiter,
    captcha: disabledCaptcha,
    events: inProcessEventBus(),
    now: () => new Date(),
    options: {
      ...defaultEngineOptions,
      payUrl: config.payUrl,
      webhookAllowPrivate: config.webhookAllowPrivate,
    },
  };
  // Test mode's verbs (`--test`, `purse test …`) run on its schema with locks of its own.
  const testLock = new MemoryRouteLock();
  const deps: EngineDependencies =
    db.testMode && !(await db.testModeUnavailable())
      ? { ...live, testMode: { ...live, db: db.testMode, routeLock: testLock } }
      : live;
  return {
    deps,
    async close() {
      await routeLock.close();
      await testLock.close();
      await rateLimiter.close();
    },
  };
}

/** What the engine takes as an operator's name (letters, digits and . _ @ -, at most 64). */
export const operatorNameRule = "letters, digits and . _ @ - (at most 64)";

/** `--operator`, or the OS user running the command. */
export function operatorName(given: string | undefined): string {
  if (given) return given;
  try {
    return userInfo().username;
  } catch {
    return process.env["USER"] ?? "operator";
  }
}

/** `--key`, or a new one: printed, so a failed or doubtful run can be repeated with it. */
export function operatorKey(given: string | undefined): { key: string; generated: boolean } {
  return given ? { key: given, generated: false } : { key: randomUUID(), generated: true };
}
