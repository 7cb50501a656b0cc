import type { SqlEntityManager } from "@mikro-orm/sql";
import type { RawBuilder } from "kysely";
import { sql } from "kysely";
import { compiler } from "./offline-compiler.ts";
import { type PgPoolStatements, PgTransaction, type Statement } from "./pg-transaction.ts";

export { sql };

/**
 * Where statements run: a unit of work's EntityManager (inside its transaction, if any), or on
 * PostgreSQL the `pg` pool past the ORM (pg-transaction.ts): a transaction on a pooled connection
 * of its own (every money movement's, ledger/run-movement.ts, and every history or search
 * snapshot's), or single statements on the pool (`Database.queries`).
 */
export type SqlRunner = SqlEntityManager | PgTransaction | PgPoolStatements;

/** The statement `query` compiles to, named `name` when given (named statements: pg-transaction.ts). */
export function statement(query: RawBuilder<unknown>, name: string | undefined): Statement {
  const compiled = query.compile(compiler);
  return { name, text: compiled.sql, values: compiled.parameters };
}

/**
 * Runs a kysely `sql` query in the runner's transaction (if any) and returns its rows. With
 * `prepareAs`, past the ORM (a PgTransaction, the pool's statements) the statement goes out as a named prepared statement: each
 * connection parses and plans it once, then only binds and executes it. MikroORM's connections
 * (Kysely) send every statement unnamed, so there the name is only documentation.
 */
export async function rows<Row>(
  runner: SqlRunner,
  query: RawBuilder<Row>,
  prepareAs?: string,
): Promise<Row[]> {
  if ("getKysely" in runner) return (await query.execute(runner.getKysely())).rows;
  return runner.rows<Row>(statement(query, prepareAs));
}

export async function firstRow<Row>(
  runner: SqlRunner,
  query: RawBuilder<Row>,
  prepareAs?: string,
): Promise<Row | undefined> {
  return (await rows(runner, query, prepareAs))[0];
}

/**
 * A statement whose rows nobody reads (a transaction's bounds): on a PgTransaction it is sent at
 * once and leaves with the next statement (pipeline mode); its failure fails that one. Elsewhere
 * (MikroORM's connection, the embedded PGlite) it simply runs.
 */
export async function sendAhead(
  runner: SqlRunner,
  query: RawBuilder<unknown>,
  prepareAs?: string,
): Promise<void> {
  if (runner instanceof PgTransaction) runner.sendAhead(statement(query, prepareAs));
  else await rows(runner, query, prepareAs);
}

/** A statement of `firstRowsThenCommit`: a query and the name it is prepared as. */
export interface NamedQuery<Row> {
  readonly query: RawBuilder<Row>;
  readonly prepareAs: string;
}

/**
 * The transaction's last statements, in order, each answering its first row: on a PgTransaction
 * they all leave at once with the COMMIT right behind them (one round trip); elsewhere they run one
 * after the other and the caller's unit of work commits next. Only for a caller whose transaction
 * commits next whatever it does (ledger/run-movement.ts, ledger/movement-batch.ts).
 */
export async function firstRowsThenCommit<Row>(
  runner: SqlRunner,
  queries: readonly NamedQuery<Row>[],
): Promise<(Row | undefined)[]> {
  if (runner instanceof PgTransaction) {
    const answers = await runner.rowsEachThenCommit<Row>(
      queries.map(({ query, prepareAs }) => statement(query, prepareAs)),
    );
    return answers.map((answer) => answer[0]);
  }
  const found: (Row | undefined)[] = [];
  for (const { query, prepareAs } of queries) found.push(await firstRow(runner, query, prepareAs));
  return found;
}

/**
 * One statement as the transaction's last, answering all its rows, the COMMIT sent right behind it
 * on a PgTransaction (one round trip); elsewhere it runs and the caller's unit of work commits next.
 * The same contract as `firstRowsThenCommit`.
 */
export async function rowsThenCommit<Row>(
  runner: SqlRunner,
  { query, prepareAs }: NamedQuery<Row>,
): Promise<Row[]> {
  if (!(runner instanceof PgTransaction)) return rows(runner, query, prepareAs);
  const [answer] = await runner.rowsEachThenCommit<Row>([statement(query, prepareAs)]);
  return answer ?? [];
}

/** PostgreSQL `bigint` arrives as a string (pg) or a bigint (PGlite); money stays a bigint. */
export function toBigInt(value: string | number | bigint): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

/** Ids are bigint columns that fit a JS number; the spec types them as numbers. */
export function toId(value: string | number | bigint): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw new RangeError(`id ${String(value)} is beyond 2^53`);
  return id;
}

/** PostgreSQL's unique_violation; the engine turns it into the matching domain error. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = findPgError(error);
  return cause?.code === "23505" && (constraint === undefined || violatedUnique(error) === constraint);
}

/**
 * The unique constraint a unique_violation broke, or null. On Citus a worker's violation reaches
 * the client without the `constraint` field, named only in the message and with its shard's
 * suffix (`wallet_numbers_pkey_103200`): read from there, the suffix taken off (no constraint of
 * Purse's ends in `_<digits>`).
 */
export function violatedUnique(error: unknown): string | null {
  const cause = findPgError(error);
  if (cause?.code !== "23505") return null;
  if (cause.constraint) return cause.constraint;
  const named = /unique constraint "([^"]+?)(?:_\d+)?"/.exec(cause.message ?? "");
  return named?.[1] ?? null;
}

/**
 * A wait the transaction's own bound cut short: `lock_timeout` (55P03 lock_not_available) or
 * `statement_timeout` (57014 query_canceled). Nothing was committed; the caller may try again.
 */
export function isWaitTimeout(error: unknown): boolean {
  const code = findPgError(error)?.code;
  return code === "55P03" || code === "57014";
}

/**
 * PostgreSQL gave up on the transaction to break a deadlock (40P01) or a serialization conflict
 * (40001): it rolled back whole, nothing was committed, and running it again is safe.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = findPgError(error)?.code;
  return code === "40P01" || code === "40001";
}

/**
 * PostgreSQL answered with an error (any SQLSTATE): the server ended the statement, so a
 * transaction it belonged to did not commit. A failure without one (a lost connection) says
 * nothing about a COMMIT already sent.
 */
export function hasSqlState(error: unknown): boolean {
  return findPgError(error) !== undefined;
}

interface PgErrorLike {
  code?: string;
  constraint?: string;
  message?: string;
}

function findPgError(error: unknown): PgErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const candidate = current as PgErrorLike & { cause?: unknown; previous?: unknown };
    if (typeof candidate.code === "string" && /^\d{2}[0-9A-Z]{3}$/.test(candidate.code)) return candidate;
    current = candidate.cause ?? candidate.previous;
  }
  return undefined;
}
