import type { Database } from "@purse/engine";
import { openConfiguredDatabase } from "../composition/open-database.ts";
import { readConfig } from "../config/config.ts";

/** Opens the configured database for one command and always closes it. */
export async function withDatabase(work: (db: Database) => Promise<void>): Promise<void> {
  const db = await openConfiguredDatabase(readConfig());
  try {
    await work(db);
  } finally {
    await db.close();
  }
}
