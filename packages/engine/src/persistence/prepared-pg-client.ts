import pg from "pg";
import { BeginThenQuery, beginStatement, isPlainBegin } from "./begin-then-query.ts";
import { statementName } from "./sql.ts";

/**
 * The `pg` connection class of Purse's pool: a statement whose text was declared with a name
 * (`rows(em, query, prepareAs)` in sql.ts) is sent as that named prepared statement, so this
 * connection parses and plans it once and afterwards only binds and executes it. Every other
 * statement goes out as the driver sends it.
 *
 * A plain `begin` is held back and leaves with the transaction's first statement when that one is
 * a named statement this connection has already parsed: one round trip instead of two (see
 * begin-then-query.ts). Any other first statement sends the `begin` on its own first, as before.
 *
 * Kysely hands the driver `client.query(text, values)` and keeps its `pg` client private, and
 * MikroORM builds the pool itself; `Client` is the pool option (`pg.Pool`'s documented
 * `Client`) through which a name can still reach the wire. Behind PgBouncer in transaction mode
 * this needs PgBouncer 1.21 or later with `max_prepared_statements` above zero (docs/deploy.md).
 */
export class PreparedPgClient extends pg.Client {
  /** A `begin` was answered but not yet sent: it goes out with the next statement. */
  heldBegin = false;
}

/** What `begin` answers when it is held back (kysely and MikroORM only await it). */
const heldBeginResult = { command: "BEGIN", rowCount: null, oid: 0, rows: [], fields: [] };

interface ParsedConnection {
  readonly parsedStatements: Record<string, string | undefined>;
}

PreparedPgClient.prototype.query = function query(this: PreparedPgClient, ...args: unknown[]) {
  const [config, values, callback] = args;
  // Looked up on each call, not kept: a test may wrap the prototype's query to count statements.
  const send = pg.Client.prototype.query as (...sent: unknown[]) => unknown;
  if (typeof config !== "string" || typeof values === "function" || callback !== undefined)
    return send.apply(this, args);
  const parsed = (this as unknown as { connection: ParsedConnection }).connection.parsedStatements;
  if (isPlainBegin(config, values)) {
    // The first `begin` of a connection is prepared under its name; later ones wait for a partner.
    if (parsed[beginStatement.name] !== beginStatement.text) return send.call(this, { ...beginStatement });
    this.heldBegin = true;
    return Promise.resolve(heldBeginResult);
  }
  const name = statementName(config);
  if (!this.heldBegin)
    return name === undefined ? send.apply(this, args) : send.call(this, { name, text: config, values });
  this.heldBegin = false;
  if (name !== undefined && parsed[name] === config && Array.isArray(values)) {
    return new Promise((resolve, reject) => {
      send.call(
        this,
        new BeginThenQuery({ name, text: config, values }, (error: Error | null, result: unknown) =>
          error ? reject(error) : resolve(result),
        ),
      );
    });
  }
  // Not fusable (unnamed, not parsed here yet, or COMMIT/ROLLBACK right away): `begin` first.
  return (send.call(this, { ...beginStatement }) as Promise<unknown>).then(() =>
    name === undefined ? send.apply(this, args) : send.call(this, { name, text: config, values }),
  );
} as pg.Client["query"];
