import {
  altchaCaptcha,
  type Database,
  defaultEngineOptions,
  disabledCaptcha,
  type EngineDependencies,
  openSecretBox,
} from "@purse/engine";
import type { PurseConfig } from "../config/config.ts";
import { type Coordination, openCoordination } from "./coordination.ts";
import { openConfiguredDatabase } from "./open-database.ts";

/** Everything a serving process holds open, built once at start and closed once at shutdown. */
export interface Runtime {
  readonly config: PurseConfig;
  readonly db: Database;
  readonly coordination: Coordination;
  readonly deps: EngineDependencies;
  close(): Promise<void>;
}

export async function openRuntime(config: PurseConfig): Promise<Runtime> {
  const db = await openConfiguredDatabase(config);
  try {
    await db.migrate();
    const coordination = await openCoordination(config);
    const secretBox = await openSecretBox(db, config.secretKey);
    const deps: EngineDependencies = {
      db,
      secretBox,
      routeLock: coordination.routeLock,
      rateLimiter: coordination.rateLimiter,
      events: coordination.events,
      captcha: config.captcha ? altchaCaptcha(secretBox.derive("captcha")) : disabledCaptcha,
      now: () => new Date(),
      options: { ...defaultEngineOptions, payUrl: config.payUrl, requireHttpsUrls: config.production },
    };
    return {
      config,
      db,
      coordination,
      deps,
      async close() {
        await coordination.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
