import type { Options } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import type { PGlite as KyselyPGlite } from "kysely";

/**
 * Test mode's data lives in a schema of its own in the same database (docs/architecture.md,
 * "Test mode"): the same migrations create the same tables there, and the same SQL, unqualified,
 * reaches them because test mode's connections find this schema first. What both modes share
 * (users, currencies, rates, settings) stays in the live schema only: migration 0019 drops test
 * mode's copies, so those names fall through to `public` (test-mode.ts in the migrations).
 */
export const testSchema = "purse_test";

/** Test mode's connections: its own tables first, the shared ones from the live schema. */
export const testSearchPath = `${testSchema},public`;

/** MikroORM's own bookkeeping (its migrations table) in test mode's schema. */
export const testModeOptions = { schema: testSchema } satisfies Partial<Options>;

/** Creates test mode's schema when missing, on `em` (a transaction's, to run under its lock). */
export async function createTestSchema(em: Pick<SqlEntityManager, "execute">): Promise<void> {
  await em.execute(`create schema if not exists ${testSchema}`);
}

/** What test mode's handle needs of PGlite's own instance (its documented API). */
interface NativePGlite extends KyselyPGlite {
  transaction<T>(callback: (tx: NativeTransaction) => Promise<T>): Promise<T>;
}

interface NativeTransaction {
  query: KyselyPGlite["query"];
  exec(sql: string): Promise<unknown>;
  rollback(): Promise<void>;
}

/**
 * The embedded PGlite has one connection, shared by both modes: every statement and transaction
 * of test mode runs inside a PGlite transaction that sets test mode's search_path locally
 * (`set local` ends with it), and PGlite runs one transaction at a time, so no live statement ever
 * runs under it. Closing is the live handle's.
 */
export function inTestSchema(pglite: NativePGlite): KyselyPGlite {
  const scoped = <T>(work: (tx: NativeTransaction) => Promise<T>) =>
    pglite.transaction(async (tx) => {
      await tx.exec(`set local search_path to ${testSearchPath}`);
      return work(tx);
    });
  return {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    query: (sql, params, options) => scoped((tx) => tx.query(sql, params, options)),
    transaction: (callback) => scoped(callback),
    close: async () => undefined,
  };
}
