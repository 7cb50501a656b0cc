import pg from "pg";

/** A second, real session that holds a transaction open: another payment caught mid-flight. */
export interface OpenSession {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** Opens a session on `url` and begins a transaction in it. */
export async function openSession(url: string): Promise<OpenSession> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("begin");
  const finish = async (verb: "commit" | "rollback") => {
    try {
      await client.query(verb);
    } finally {
      await client.end();
    }
  };
  return {
    query: (text, values) => client.query(text, values),
    commit: () => finish("commit"),
    rollback: () => finish("rollback"),
  };
}

/** Holds a wallet's row lock (`SELECT ... FOR UPDATE`) until the session ends. */
export async function holdWalletRow(url: string, walletNumber: string): Promise<OpenSession> {
  const session = await openSession(url);
  await session.query("select id from wallets where number = $1 for update", [walletNumber]);
  return session;
}

/** Waits until `count` sessions of the database `name` wait on a lock (row, unique key...). */
export async function waitForLockWaits(url: string, name: string, count: number, timeoutMs = 5_000) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const { rows } = await client.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity
         where datname = $1 and wait_event_type = 'Lock'`,
        [name],
      );
      if ((rows[0]?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`fewer than ${count} sessions waited on a lock within ${timeoutMs} ms`);
  } finally {
    await client.end();
  }
}
