import { createRequire } from "node:module";
import pg from "pg";

/** A named statement already parsed on the connection, with its values. */
export interface BoundStatement {
  readonly name: string;
  readonly values: readonly unknown[];
}

/** `begin` and `commit` as named statements: after their first use a connection only binds and executes them. */
export const beginStatement = { name: "purse_begin", text: "begin", values: [] } as const;
export const commitStatement = { name: "purse_commit", text: "commit", values: [] } as const;

interface WireConnection {
  readonly stream: { cork(): void; uncork(): void };
  bind(config: {
    statement: string;
    portal?: string;
    values: readonly unknown[];
    valueMapper?: (value: unknown) => unknown;
  }): void;
  execute(config: { portal?: string; rows?: number }): void;
  sync(): void;
}

/** The parts of pg's Query (lib/query.js) this class builds on; @types/pg does not declare them. */
interface PgQueryInternals {
  submit(connection: WireConnection): Error | null;
  handleRowDescription(message: unknown): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
}

const PgQuery = pg.Query as unknown as new (
  config: { name: string; text: string; values: unknown[] },
  callback: (error: Error | null, result: unknown) => void,
) => PgQueryInternals;

/** pg's own conversion of a JavaScript value to a parameter (dates, arrays, buffers, bigint). */
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as {
  prepareValue(value: unknown): unknown;
};

/**
 * One statement sent in the same write, and answered under the same Sync, as the statements
 * around it: `before` (a held `begin`, a transaction's bounds) go first, the statement itself with
 * its Describe, then a `commit` if asked. PostgreSQL runs the messages in order inside one
 * exchange and answers with one ReadyForQuery: one round trip where there were several. An error
 * in any of them skips the rest up to the Sync (so a failed statement is never committed) and
 * ends the whole exchange with that error, as if the failing statement had been sent alone.
 *
 * Only statements already parsed on this connection are pipelined (the caller checks), so no
 * ParseComplete arrives that pg would credit to the wrong statement. Only the statement's own
 * rows reach the caller: the others' replies are skipped, counted off by their CommandComplete.
 */
export class PipelinedQuery extends PgQuery {
  readonly #before: readonly BoundStatement[];
  readonly #commitAfter: boolean;
  /** Replies of `before` statements not yet seen to their end. */
  #pendingBefore: number;
  #statementAnswered = false;

  constructor(
    statement: { name: string; text: string; values: unknown[] },
    options: { before: readonly BoundStatement[]; commitAfter: boolean },
    callback: (error: Error | null, result: unknown) => void,
  ) {
    super(statement, callback);
    this.#before = options.before;
    this.#commitAfter = options.commitAfter;
    this.#pendingBefore = options.before.length;
  }

  override submit(connection: WireConnection): Error | null {
    connection.stream.cork();
    try {
      for (const { name, values } of this.#before) {
        connection.bind({ statement: name, portal: "", values, valueMapper: prepareValue });
        connection.execute({ portal: "" });
      }
      // Binds, describes and executes the statement; `_getRows` below adds the commit and the Sync.
      return super.submit(connection);
    } finally {
      connection.stream.uncork();
    }
  }

  /** pg's last step of sending a statement (lib/query.js): Execute, then Sync. */
  _getRows(connection: WireConnection, rows: number | undefined): void {
    connection.execute({ portal: "", ...(rows === undefined ? {} : { rows }) });
    if (this.#commitAfter) {
      connection.bind({ statement: commitStatement.name, portal: "", values: [] });
      connection.execute({ portal: "" });
    }
    connection.sync();
  }

  override handleRowDescription(message: unknown): void {
    if (this.#pendingBefore === 0) super.handleRowDescription(message);
  }

  override handleDataRow(message: unknown): void {
    if (this.#pendingBefore === 0) super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: WireConnection): void {
    if (this.#pendingBefore > 0) {
      this.#pendingBefore -= 1;
      return;
    }
    // The commit's CommandComplete follows the statement's; only the statement's makes the result.
    if (this.#statementAnswered) return;
    this.#statementAnswered = true;
    super.handleCommandComplete(message, connection);
  }
}
