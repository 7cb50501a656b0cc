import { foldCounters, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { sampleFixture } from "./sample-fixture.ts";
import { copyTemplateDatabase } from "./test-database.ts";

/**
 * A copy of the migrated template with the sample world seeded into it, under `secretKey`, made
 * once per run by the global set-up: the files that use the sample world as it is copy this one
 * instead of seeding their own (its password hashes, sealed form tokens and wallets cost a few
 * hundred milliseconds of a core per file). The copy carries everything the seeding wrote, the
 * sequences' positions included, so a file sees what it would have seeded itself.
 */
export async function createSampleWorldTemplate(template: string, secretKey: string): Promise<string> {
  const { name, url } = await copyTemplateDatabase(template);
  const db = await openDatabase({ kind: "postgres", url }, { poolSize: 2 });
  try {
    await seedFixture(db, secretBoxFromKey(secretKey), sampleFixture());
    // The seeding's counter deltas folded (migration 0020), as a running server would have.
    await foldCounters(db);
  } finally {
    // No connection may stay open on a template: PostgreSQL copies only a database nobody is in.
    await db.close();
  }
  return name;
}
