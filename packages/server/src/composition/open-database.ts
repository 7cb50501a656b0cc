import { type Database, openDatabase } from "@purse/engine";
import type { PurseConfig } from "../config/config.ts";

/** PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite store in PURSE_DATA_DIR. */
export function openConfiguredDatabase(config: PurseConfig): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: "postgres", url: config.databaseUrl })
    : openDatabase({ kind: "embedded", dataDir: config.dataDir });
}

export function describeLocation(db: Database): string {
  return db.location.kind === "postgres"
    ? `PostgreSQL at ${redactUrl(db.location.url)}`
    : `the embedded database in ${db.location.dataDir}`;
}

/** Connection strings may carry passwords; they never reach a log or a terminal. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
