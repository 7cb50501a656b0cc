import type { SqlEntityManager } from "@mikro-orm/sql";
import { CompiledQuery, type RawBuilder, sql } from "kysely";
import { DirectTransaction } from "./direct-transaction.ts";
import { compileNamed, type StatementRole } from "./named-statements.ts";
import { compiler } from "./offline-compiler.ts";

export {
  type NamedStatement,
  namedStatement,
  nameStatement,
  type StatementRole,
} from "./named-statements.ts";
export { sql };

/**
 * Where statements run: a unit of work's EntityManager (inside its transaction, if any), or a
 * movement's own transaction past the ORM (direct-transaction.ts).
 */
export type SqlRunner = SqlEntityManager | DirectTransaction;

/**
 * Runs a kysely `sql` query inside the EntityManager's transaction (if any) and returns its rows.
 * With `prepareAs`, the statement is sent as a named prepared statement on PostgreSQL (see
 * `nameStatement`): each connection parses it once, then only binds and executes it.
 */
export async function rows<Row>(
  runner: SqlRunner,
  query: RawBuilder<Row>,
  prepareAs?: string,
  role: StatementRole = "answered",
): Promise<Row[]> {
  if (runner instanceof DirectTransaction) {
    if (prepareAs === undefined) {
      const compiled = query.compile(compiler);
      return runner.rows<Row>(compiled.sql, [...compiled.parameters]);
    }
    const { text, parameters } = compileNamed(query, prepareAs, role, (whole) => whole.compile(compiler));
    return runner.rows<Row>(text, parameters);
  }
  const kysely = runner.getKysely();
  if (prepareAs === undefined) return (await query.execute(kysely)).rows;
  // The declared text object, whose hash V8 has already computed: the connection looks it up again.
  const { text, parameters } = compileNamed(query, prepareAs, role, (whole) => whole.compile(kysely));
  return (await kysely.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows;
}

export async function firstRow<Row>(
  runner: SqlRunner,
  query: RawBuilder<Row>,
  prepareAs?: string,
  role?: StatementRole,
): Promise<Row | undefined> {
  return (await rows(runner, query, prepareAs, role))[0];
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
  return cause?.code === "23505" && (constraint === undefined || cause.constraint === constraint);
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

interface PgErrorLike {
  code?: string;
  constraint?: string;
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
