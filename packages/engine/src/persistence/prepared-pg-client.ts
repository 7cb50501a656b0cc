import pg from "pg";
import { statementName } from "./sql.ts";

/**
 * The `pg` connection class of Purse's pool: a statement whose text was declared with a name
 * (`rows(em, query, prepareAs)` in sql.ts) is sent as that named prepared statement, so this
 * connection parses and plans it once and afterwards only binds and executes it. Every other
 * statement goes out as the driver sends it.
 *
 * Kysely hands the driver `client.query(text, values)` and keeps its `pg` client private, and
 * MikroORM builds the pool itself; `Client` is the pool option (`pg.Pool`'s documented
 * `Client`) through which a name can still reach the wire. Behind PgBouncer in transaction mode
 * this needs PgBouncer 1.21 or later with `max_prepared_statements` above zero (docs/deploy.md).
 */
export class PreparedPgClient extends pg.Client {}

PreparedPgClient.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
  const [config, values, callback] = args;
  const name = typeof config === "string" ? statementName(config) : undefined;
  // Looked up on each call, not kept: a test may wrap the prototype's query to count statements.
  const send = pg.Client.prototype.query as (...sent: unknown[]) => unknown;
  if (name === undefined || typeof values === "function") return send.apply(this, args);
  return send.call(this, { name, text: config, values }, callback);
} as pg.Client["query"];
