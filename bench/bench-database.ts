import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

/** A throwaway database holding the bench world (bench-fixture.ts), migrated as `purse serve` finds it. */
export async function createBenchDatabase(prefix: string): Promise<ScratchDatabase> {
  const database = await createScratchDatabase(prefix);
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
  await db.close();
  return database;
}
