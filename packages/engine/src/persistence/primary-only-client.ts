import type { EventEmitter } from "node:events";
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

/**
 * Parameters PostgreSQL (14 and later) reports to the client at connect and whenever they change,
 * so a connection knows it sits on a read-only node without asking (libpq's
 * `target_session_attrs=read-write` reads the same two).
 */
const readOnlyParameters = new Set(["in_hot_standby", "default_transaction_read_only"]);

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take any[] (TS2545).
type ClientClass = new (...args: any[]) => pg.Client;

/**
 * The connection class for DATABASE_URL's pool, on top of `base` (the prepared-statement client or
 * pg's own). During a primary failover behind HAProxy, new connections can land on the old
 * primary, restarted by Patroni as a read-only replica, for as long as HAProxy's checks take to
 * mark it down; such a connection would fail every movement with 25006 and, pooled again, the next
 * one too. So:
 * - a connection that opens on a read-only node fails to connect (ReadOnlyNodeError): the pool
 *   never hands it out, the caller gets a retryable refusal, the next call connects anew;
 * - a connection on which a statement fails with 25006 (its node turned read-only under it) is
 *   closed once the error is delivered, so the pool discards it on release instead of reusing it.
 *
 * It listens on `pg`'s connection object, which carries the protocol's messages (ParameterStatus,
 * ErrorResponse) and is what pg.Client itself listens on; the client offers no event for either.
 */
export function primaryOnly<Base extends ClientClass>(base: Base): Base {
  class PrimaryOnlyClient extends base {
    readonly #readOnly = new Map<string, boolean>();

    // biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor must take any[] (TS2545).
    constructor(...args: any[]) {
      super(...args);
      const connection = (this as unknown as { connection: EventEmitter }).connection;
      connection.on("parameterStatus", (message: { parameterName: string; parameterValue: string }) => {
        if (readOnlyParameters.has(message.parameterName)) {
          this.#readOnly.set(message.parameterName, message.parameterValue === "on");
        }
      });
      connection.on("errorMessage", (message: { code?: string }) => {
        // After pg has handed the error to the statement's caller (its own listener runs next).
        if (message.code === readOnlyTransactionState)
          process.nextTick(() => void this.end().catch(() => {}));
      });
    }

    get onReadOnlyNode(): boolean {
      return [...this.#readOnly.values()].some(Boolean);
    }
  }
  const connect = base.prototype.connect;
  // pg-pool connects with a callback, a caller of its own without: both learn of a read-only node.
  PrimaryOnlyClient.prototype.connect = function (
    this: PrimaryOnlyClient,
    callback?: (error?: Error) => void,
  ) {
    const connecting = (connect.call(this) as Promise<void>).then(async () => {
      if (!this.onReadOnlyNode) return;
      await this.end().catch(() => {});
      throw new ReadOnlyNodeError();
    });
    if (!callback) return connecting;
    connecting.then(() => callback(), callback);
    return undefined;
  } as pg.Client["connect"];
  return PrimaryOnlyClient;
}
