import type { Database } from "@purse/engine";
import { explainFailure } from "../composition/explain-failure.ts";
import { describeLocation, openConfiguredDatabase } from "../composition/open-database.ts";
import { readConfig } from "../config/config.ts";

/**
 * Opens the configured database for one command and always closes it. Every command but
 * `migrate` needs the schema in place and says `run purse migrate` otherwise; database failures
 * come back as one line for the operator (see explain-failure.ts), never as the driver's text.
 */
export async function withDatabase(
  work: (db: Database) => Promise<void>,
  options: { requireMigrated?: boolean } = {},
): Promise<void> {
  const db = await openConfiguredDatabase(readConfig(), { requireMigrated: options.requireMigrated ?? true });
  try {
    await work(db);
  } catch (error) {
    throw explainFailure(error, describeLocation(db));
  } finally {
    await db.close();
  }
}
