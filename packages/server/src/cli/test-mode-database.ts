import type { Database } from "@purse/engine";

/** `--test`: test mode's data (its own schema, beside the live one); the live database otherwise. */
export function databaseInMode(db: Database, test: boolean | undefined): Database {
  if (!test) return db;
  if (!db.testMode) throw new Error("this database has no test mode");
  return db.testMode;
}
