import type pg from "pg";

/**
 * A database transaction on a pooled `pg` connection of its own, past the ORM and the query
 * builder: what the movement pipeline runs a transfer's transaction on (ledger/run-movement.ts).
 * Its statements are the pipeline's own named statements (sql.ts `rows`), so the connection class
 * still prepares and pipelines them (prepared-pg-client.ts); only MikroORM's unit of work and
 * Kysely's executor, about a tenth of a transfer's CPU in the server (docs/benchmark.md), are left
 * out. Rows arrive parsed as through MikroORM: the pool, and its type parsers, are MikroORM's.
 */
export class DirectTransaction {
  readonly #client: pg.PoolClient;

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  async rows<Row>(text: string, values: unknown[]): Promise<Row[]> {
    return (await this.#client.query(text, values)).rows as Row[];
  }
}

/**
 * Runs `work` in one transaction on a connection from `pool`: COMMIT when it resolves, ROLLBACK
 * when it throws. A connection that could not even roll back is closed rather than pooled again.
 */
export async function transactDirect<T>(
  pool: pg.Pool,
  work: (transaction: DirectTransaction) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("begin");
    const result = await work(new DirectTransaction(client));
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
