import type { Database } from "@purse/engine";

/** `--test`: test mode's data (its own schema, beside the live one); the live database otherwise. */
export async function databaseInMode(db: Database, test: boolean | undefined): Promise<Database> {
  if (!test) return db;
  const off = db.testMode ? await db.testModeUnavailable() : "this database has none";
  if (!db.testMode || off)
    throw new Error(`test mode is off: ${off} (docs/deploy.md, "Test mode behind a proxy")`);
  return db.testMode;
}
