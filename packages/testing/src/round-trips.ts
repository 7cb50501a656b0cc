import type { Database } from "@purse/engine";
import type pg from "pg";

/** What one piece of work sent to PostgreSQL on the pool's connections. */
export interface SentStatements {
  /** Times a connection had to wait for PostgreSQL's answer before it could send on. */
  readonly roundTrips: number;
  /** Each statement's name, in order (undefined: sent unnamed), with its text (its first words). */
  readonly statements: readonly { readonly name: string | undefined; readonly text: string }[];
}

type Query = (...args: unknown[]) => Promise<unknown>;

/**
 * Counts what `work` sends through the database's `pg` pool, on the real driver: every client the
 * pool hands out (its documented `acquire` event) has its `query` watched until it is released.
 * A statement sent while an earlier one of the same connection is still unanswered rides that
 * round trip (pipeline mode); one sent when nothing is in flight starts a new round trip. No
 * timing is involved: a statement sent in the same turn as another cannot have seen its answer.
 */
export async function countSent(db: Database, work: () => Promise<unknown>): Promise<SentStatements> {
  const pool = (await db.orm.em.getConnection().getNativeClient()) as pg.Pool;
  let roundTrips = 0;
  const statements: { name: string | undefined; text: string }[] = [];
  const watched = new Map<pg.PoolClient, Query>();
  const watch = (client: pg.PoolClient) => {
    if (watched.has(client)) return;
    const query = client.query.bind(client) as Query;
    watched.set(client, query);
    let inFlight = 0;
    Object.assign(client, {
      query: (...args: unknown[]) => {
        const [config] = args;
        const described =
          typeof config === "string"
            ? { name: undefined, text: config }
            : (config as { name?: string; text: string });
        statements.push({ name: described.name, text: described.text.trim().split(/\s+/, 3).join(" ") });
        if (inFlight === 0) roundTrips += 1;
        inFlight += 1;
        const answered = query(...args);
        const settle = () => {
          inFlight -= 1;
        };
        answered.then(settle, settle);
        return answered;
      },
    });
  };
  const unwatch = (_error: Error | undefined, client: pg.PoolClient) => {
    if (!watched.delete(client)) return;
    Reflect.deleteProperty(client, "query"); // the prototype's own again
  };
  pool.on("acquire", watch);
  pool.on("release", unwatch);
  try {
    await work();
  } finally {
    pool.off("acquire", watch);
    pool.off("release", unwatch);
    for (const client of [...watched.keys()]) unwatch(undefined, client);
  }
  return { roundTrips, statements };
}
