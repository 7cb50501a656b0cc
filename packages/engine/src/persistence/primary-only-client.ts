import type pg from "pg";

/** SQLSTATE 25006 read_only_sql_transaction: a write reached a node that takes none. */
export const readOnlyTransactionState = "25006";

/**
 * The connection reached a node that refuses writes: a hot standby (a failed-over old primary
 * that HAProxy still routes to until its checks fail) or a database set to
 * `default_transaction_read_only`. Carries SQLSTATE 25006 so that every door answers it as the
 * database being unavailable (database-unavailable.ts): a retryable 503, never a 500.
 */
export class ReadOnlyNodeError extends Error {
  override readonly name = "ReadOnlyNodeError";
  readonly code = readOnlyTransactionState;
  constructor() {
    super(
      "connected to a read-only PostgreSQL node (hot standby or default_transaction_read_only), not the primary",
    );
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take any[] (TS2545).
type ClientClass = new (...args: any[]) => pg.Client;

/**
 * The connection class for DATABASE_URL's pool, on top of pg's own. During a primary failover
 * behind HAProxy, new connections can land on the old primary, restarted by Patroni as a
 * read-only replica, for as long as HAProxy's checks take to mark it down; such a connection would
 * fail every movement with 25006 and, pooled again, the next one too. So a connection asks, once
 * when it opens, whether its session is read-only (`show transaction_read_only`: on on a hot
 * standby and under `default_transaction_read_only`, what libpq's `target_session_attrs=read-write`
 * asks servers that do not report it): on a read-only node it fails to connect
 * (ReadOnlyNodeError), the pool never hands it out, the caller gets a retryable refusal and the
 * next call connects anew. One round trip per connection opened, none per statement.
 *
 * A connection whose node turns read-only under it (a demotion restarts PostgreSQL, which closes
 * it; a changed setting does not) is discarded by whoever holds it when a write fails with 25006:
 * a movement's transaction releases it as broken (pg-transaction.ts) and `pool.query` releases a
 * failed statement's connection as broken itself.
 */
export function primaryOnly<Base extends ClientClass>(base: Base): Base {
  class PrimaryOnlyClient extends base {}
  const connect = base.prototype.connect;
  // pg-pool connects with a callback, a caller of its own without: both learn of a read-only node.
  PrimaryOnlyClient.prototype.connect = function (
    this: PrimaryOnlyClient,
    callback?: (error?: Error) => void,
  ) {
    const connecting = (connect.call(this) as Promise<void>).then(async () => {
      // Connected, but not yet handed to the pool, which listens for its errors only once this
      // resolves: a connection lost during the check (a failover's restart) would emit an 'error'
      // nobody hears and stop the process. The check's own query fails with that error anyway,
      // and the pool or the caller learns of it from there.
      const heardByTheCheck = () => {};
      this.on("error", heardByTheCheck);
      try {
        const answer = await this.query<{ transaction_read_only: string }>("show transaction_read_only");
        if (answer.rows[0]?.transaction_read_only !== "on") return;
        await this.end().catch(() => {});
        throw new ReadOnlyNodeError();
      } finally {
        this.removeListener("error", heardByTheCheck);
      }
    });
    if (!callback) return connecting;
    connecting.then(() => callback(), callback);
    return undefined;
  } as pg.Client["connect"];
  return PrimaryOnlyClient;
}
