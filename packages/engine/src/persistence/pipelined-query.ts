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

/** A column of a RowDescription, as pg-protocol parses it. */
interface FieldDescription {
  readonly name: string;
  readonly dataTypeID: number;
  readonly format: string;
}

/** What pg's Result (lib/result.js) builds from a RowDescription to parse the rows that follow. */
interface ResultLayout {
  fields: readonly FieldDescription[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
}

/** The parts of pg's Query (lib/query.js) this class builds on; @types/pg does not declare them. */
interface PgQueryInternals {
  readonly _result: ResultLayout;
  _accumulateRows: boolean;
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
 * Statement name → the row layout pg built from its first RowDescription. A named statement's
 * columns do not change (PostgreSQL refuses to run it if they would), and pg would otherwise
 * rebuild the layout, a parser lookup and a fresh object shape per column, on every call.
 */
const layouts = new Map<string, ResultLayout>();

function sameColumns(known: readonly FieldDescription[], fields: readonly FieldDescription[]): boolean {
  if (known.length !== fields.length) return false;
  for (let index = 0; index < known.length; index += 1) {
    const a = known[index];
    const b = fields[index];
    if (a?.name !== b?.name || a?.dataTypeID !== b?.dataTypeID || a?.format !== b?.format) return false;
  }
  return true;
}

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
  readonly #name: string;
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
    this.#name = statement.name;
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
    if (this.#pendingBefore !== 0) return;
    const { fields } = message as { fields: readonly FieldDescription[] };
    const known = layouts.get(this.#name);
    if (known !== undefined && sameColumns(known.fields, fields)) {
      this._result.fields = known.fields;
      this._result._parsers = known._parsers;
      this._result._prebuiltEmptyResultObject = known._prebuiltEmptyResultObject;
      this._accumulateRows = true; // a callback is always given, so pg would accumulate too
      return;
    }
    super.handleRowDescription(message);
    const { _parsers, _prebuiltEmptyResultObject } = this._result;
    layouts.set(this.#name, { fields, _parsers, _prebuiltEmptyResultObject });
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
