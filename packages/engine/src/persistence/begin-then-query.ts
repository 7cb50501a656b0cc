import pg from "pg";

/** `begin` as a named statement: after its first use a connection only binds and executes it. */
export const beginStatement = { name: "purse_begin", text: "begin", values: [] } as const;

/** The `begin` kysely sends for a transaction with no isolation level or access mode. */
export function isPlainBegin(text: string, values: unknown): boolean {
  return text === "begin" && (values === undefined || (Array.isArray(values) && values.length === 0));
}

interface WireConnection {
  readonly stream: { cork(): void; uncork(): void };
  bind(config: { statement: string; portal?: string; values: unknown[] }): void;
  execute(config: { portal?: string }): void;
}

/** The parts of pg's Query (lib/query.js) this class builds on; @types/pg does not declare them. */
interface PgQueryInternals {
  submit(connection: WireConnection): Error | null;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
}

const PgQuery = pg.Query as unknown as new (
  config: { name: string; text: string; values: unknown[] },
  callback: (error: Error | null, result: unknown) => void,
) => PgQueryInternals;

/**
 * A transaction's first statement with its `begin` in the same write: Bind + Execute of the
 * prepared `begin`, then the statement's own Bind, Describe, Execute and the one Sync that ends
 * both. PostgreSQL runs the messages in order, so the statement runs inside the transaction the
 * `begin` opened, and answers them with one ReadyForQuery: one round trip where there were two.
 *
 * Only for a named statement already parsed on this connection (`PreparedPgClient` checks), so
 * no ParseComplete arrives that pg would credit to the wrong statement. The reply to `begin` is
 * its CommandComplete, which is skipped here; an error in either ends the whole exchange with
 * that error, as a failed `begin` or first statement did before (the caller then rolls back).
 */
export class BeginThenQuery extends PgQuery {
  #beginAnswered = false;

  override submit(connection: WireConnection): Error | null {
    connection.stream.cork();
    try {
      connection.bind({ statement: beginStatement.name, portal: "", values: [] });
      connection.execute({ portal: "" });
      return super.submit(connection);
    } finally {
      connection.stream.uncork();
    }
  }

  override handleCommandComplete(message: unknown, connection: WireConnection): void {
    if (!this.#beginAnswered) {
      this.#beginAnswered = true;
      return;
    }
    super.handleCommandComplete(message, connection);
  }
}
