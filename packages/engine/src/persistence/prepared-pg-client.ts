import pg from "pg";
import { namedStatement } from "./named-statements.ts";
import { type BoundStatement, beginStatement, commitStatement, PipelinedQuery } from "./pipelined-query.ts";

/**
 * The `pg` connection class of Purse's pool: a statement whose text was declared with a name
 * (`rows(em, query, prepareAs)` in sql.ts) is sent as that named prepared statement, so this
 * connection parses and plans it once and afterwards only binds and executes it. Every other
 * statement goes out as the driver sends it.
 *
 * Statements whose answer nobody waits for travel with the next one (pipelined-query.ts): a plain
 * `begin` and a "sent-with-next" statement (a transaction's bounds) are answered at once and held,
 * then leave in the same write as the transaction's next statement; a "commits" statement takes
 * the transaction's COMMIT along, and the `commit` the transaction then sends is answered here.
 * Only statements this connection has already parsed are pipelined; the first use of each goes
 * out on its own.
 *
 * Kysely hands the driver `client.query(text, values)` and keeps its `pg` client private, and
 * MikroORM builds the pool itself; `Client` is the pool option (`pg.Pool`'s documented
 * `Client`) through which a name can still reach the wire. Behind PgBouncer in transaction mode
 * this needs PgBouncer 1.21 or later with `max_prepared_statements` above zero (docs/deploy.md).
 */
export class PreparedPgClient extends pg.Client {
  /** Answered but not yet sent: they go out with the next statement. */
  held: BoundStatement[] = [];
  /** The transaction's COMMIT already went out with its last statement. */
  committedAhead = false;
}

/** Statement name → text of what this connection has parsed (pg's own bookkeeping). */
function parsedOn(client: PreparedPgClient): Record<string, string | undefined> {
  return (client as unknown as { connection: { parsedStatements: Record<string, string | undefined> } })
    .connection.parsedStatements;
}

type Send = (this: PreparedPgClient, ...sent: unknown[]) => Promise<unknown>;

/** What a held statement answers (kysely and MikroORM only await `begin`; bounds' rows are unused). */
function answered(command: string): Promise<unknown> {
  return Promise.resolve({ command, rowCount: null, oid: 0, rows: [], fields: [] });
}

function isPlain(text: string, values: unknown, command: "begin" | "commit" | "rollback"): boolean {
  return text === command && (values === undefined || (Array.isArray(values) && values.length === 0));
}

PreparedPgClient.prototype.query = function query(this: PreparedPgClient, ...args: unknown[]) {
  const [config, values, callback] = args;
  // Looked up on each call, not kept: a test may wrap the prototype's query to count statements.
  const send = pg.Client.prototype.query as unknown as Send;
  if (typeof config !== "string" || typeof values === "function" || callback !== undefined)
    return send.apply(this, args);
  const parsed = parsedOn(this);

  if (isPlain(config, values, "begin")) {
    // The first `begin` of a connection is prepared under its name; later ones wait for a partner.
    if (parsed[beginStatement.name] !== beginStatement.text) return send.call(this, { ...beginStatement });
    this.held = [{ name: beginStatement.name, values: [] }];
    return answered("BEGIN");
  }
  if (isPlain(config, values, "commit") || isPlain(config, values, "rollback")) {
    return endTransaction(this, send, config === "commit");
  }

  const statement = namedStatement(config);
  if (statement === undefined || parsed[statement.name] !== config || !Array.isArray(values)) {
    // Not pipelined (unnamed, or not parsed here yet): whatever is held goes first.
    return sendHeld(this, send).then(() =>
      statement === undefined
        ? send.apply(this, args)
        : send.call(this, { name: statement.name, text: config, values }),
    );
  }
  if (statement.role === "sent-with-next") {
    this.held.push({ name: statement.name, values });
    return answered("SELECT");
  }
  const commitAfter = statement.role === "commits" && parsed[commitStatement.name] === commitStatement.text;
  return pipeline(this, send, { name: statement.name, text: config, values }, commitAfter).then((result) => {
    if (commitAfter) this.committedAhead = true;
    return result;
  });
} as pg.Client["query"];

/** Sends `statement` with everything held before it (and the COMMIT after it, if asked), in one write. */
function pipeline(
  client: PreparedPgClient,
  send: Send,
  statement: { name: string; text: string; values: unknown[] },
  commitAfter: boolean,
): Promise<unknown> {
  const before = client.held;
  client.held = [];
  return new Promise((resolve, reject) => {
    void send.call(
      client,
      new PipelinedQuery(statement, { before, commitAfter }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  });
}

/** Sends what is held, if anything, in one write: its last statement carries the others. */
async function sendHeld(client: PreparedPgClient, send: Send): Promise<void> {
  const last = client.held.at(-1);
  if (last === undefined) return;
  const parsed = parsedOn(client);
  client.held = client.held.slice(0, -1);
  await pipeline(
    client,
    send,
    { name: last.name, text: parsed[last.name] ?? "", values: [...last.values] },
    false,
  );
}

/**
 * COMMIT or ROLLBACK. A transaction that never reached the server (its `begin` still held) ends
 * here; one whose COMMIT already went out with its last statement is answered here; a rollback of
 * such a transaction is a caller's bug, refused loudly since nothing can undo the commit.
 */
function endTransaction(client: PreparedPgClient, send: Send, commit: boolean): Promise<unknown> {
  if (client.held[0]?.name === beginStatement.name) {
    client.held = [];
    return answered(commit ? "COMMIT" : "ROLLBACK");
  }
  // Bounds still held would end with the transaction anyway (SET LOCAL).
  client.held = [];
  if (client.committedAhead) {
    client.committedAhead = false;
    if (commit) return answered("COMMIT");
    return Promise.reject(new Error("a transaction committed with its last statement cannot be rolled back"));
  }
  return commit ? send.call(client, { ...commitStatement }) : send.call(client, "rollback");
}
