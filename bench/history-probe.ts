import pg from "pg";

/**
 * What one history request costs PostgreSQL, per statement: pg_stat_statements over the scratch
 * database only, reset before the load and read after it, so each ledger size gets its own figures
 * (time per call, rows, buffers) and the size where a statement's cost grows stands out.
 */
export async function resetStatementStats(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query("create extension if not exists pg_stat_statements");
    await client.query(
      "select pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)",
    );
  }).catch(() => undefined); // without the module preloaded there is nothing to reset (statementStats says so)
}

/** The statements run since the reset, the costliest first, one line each. */
export async function statementStats(url: string): Promise<string[]> {
  const stats = withClient(url, async (client) => {
    const result = await client.query<{
      calls: string;
      mean: number;
      max: number;
      plan: number;
      rows: string;
      hit: string;
      read: string;
      query: string;
    }>(
      `select calls, mean_exec_time as mean, max_exec_time as max, mean_plan_time as plan,
         rows, shared_blks_hit as hit, shared_blks_read as read, query
       from pg_stat_statements
       where dbid = (select oid from pg_database where datname = current_database()) and calls >= 10
       order by total_exec_time desc limit 6`,
    );
    return result.rows.map((row) => {
      const calls = Number(row.calls);
      const per = (value: string) => (Number(value) / calls).toFixed(0);
      const text = row.query.replace(/\s+/g, " ").slice(0, 90);
      return `${calls} calls, ${row.mean.toFixed(2)} ms/call (max ${row.max.toFixed(1)}, plan ${row.plan.toFixed(2)}), ${per(row.rows)} rows, ${per(row.hit)} hit + ${per(row.read)} read blocks/call: ${text}`;
    });
  });
  return stats.catch((error: Error) => [
    `no per-statement figures: ${error.message} (shared_preload_libraries = 'pg_stat_statements' enables them)`,
  ]);
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement, as Purse sends it (same text, same parameters). */
export async function explain(url: string, text: string, parameters: readonly unknown[]): Promise<string> {
  return withClient(url, async (client) => {
    const result = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers, costs off) ${text}`,
      [...parameters],
    );
    return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one statement as Purse's history and search run it
 * (`Database.snapshot`, persistence/pg-transaction.ts): prepared under a name with one plan for every value (a
 * generic plan) and no parallel workers. An unnamed statement with its values would get a plan
 * made for those values, which Purse never runs.
 */
export async function explainGeneric(
  url: string,
  text: string,
  parameters: readonly unknown[],
): Promise<string> {
  return withClient(url, async (client) => {
    await client.query("set plan_cache_mode = force_generic_plan");
    await client.query("set max_parallel_workers_per_gather = 0");
    // As Purse's snapshots run (persistence/pg-transaction.ts, `transactionSettings`).
    await client.query("set jit = off");
    await client.query({ name: "explained", text, values: [...parameters] });
    const literal = (value: unknown) =>
      value === null || value === undefined
        ? "null"
        : `'${(value instanceof Date ? value.toISOString() : String(value)).replaceAll("'", "''")}'`;
    const result = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers, costs off) execute explained(${parameters.map(literal).join(", ")})`,
    );
    return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/** One statement's rows. */
export async function query<Row extends pg.QueryResultRow>(
  url: string,
  text: string,
  parameters: readonly unknown[],
): Promise<Row[]> {
  return withClient(url, async (client) => (await client.query<Row>(text, [...parameters])).rows);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
