import type { SqlEntityManager } from "@mikro-orm/sql";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from "kysely";
import { DirectTransaction } from "./direct-transaction.ts";

export { sql };

/**
 * Where statements run: a unit of work's EntityManager (inside its transaction, if any), or a
 * movement's own transaction past the ORM (direct-transaction.ts).
 */
export type SqlRunner = SqlEntityManager | DirectTransaction;

/** Compiles without a connection, for a DirectTransaction: PostgreSQL's SQL, as MikroORM's own Kysely. */
const compiler = new Kysely<never>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * How a named statement travels (prepared-pg-client.ts):
 * - "answered": on its own, its rows awaited (every named statement unless said otherwise);
 * - "sent-with-next": its rows are not needed, so it is held and leaves in the same write as the
 *   transaction's next statement (a transaction's bounds);
 * - "commits": the transaction's COMMIT leaves in the same write, right behind it. Only for the
 *   last statement of a transaction whose caller commits next, whatever it does in between.
 */
export type StatementRole = "answered" | "sent-with-next" | "commits";

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
    const compiled = query.compile(compiler);
    const text = prepareAs === undefined ? compiled.sql : nameStatement(prepareAs, compiled.sql, role);
    return runner.rows<Row>(text, compiled.parameters);
  }
  const kysely = runner.getKysely();
  if (prepareAs === undefined) return (await query.execute(kysely)).rows;
  const compiled = query.compile(kysely);
  // The declared text object, whose hash V8 has already computed: the connection looks it up again.
  const text = nameStatement(prepareAs, compiled.sql, role);
  return (await kysely.executeQuery<Row>({ ...compiled, sql: text })).rows;
}

export async function firstRow<Row>(
  runner: SqlRunner,
  query: RawBuilder<Row>,
  prepareAs?: string,
  role?: StatementRole,
): Promise<Row | undefined> {
  return (await rows(runner, query, prepareAs, role))[0];
}

/** SQL text → statement name and role, for the connection class (prepared-pg-client.ts) to look up. */
const statementsByText = new Map<string, NamedStatement>();
const statementTexts = new Map<string, string>();

export interface NamedStatement {
  readonly name: string;
  readonly role: StatementRole;
}

/**
 * Declares `text` as the one SQL text of the prepared statement `name`. Kysely and MikroORM send
 * every statement unnamed (parsed and planned on each call), and pass the driver only the text and
 * the values, so the name travels by this map: the PostgreSQL connection class sends a known text
 * under its name. A name is bound to one text (and one role) for the life of the process: a query
 * whose text varies (a list spliced in, an optional clause) must not be named, and throws here.
 * Answers the declared text.
 */
export function nameStatement(name: string, text: string, role: StatementRole = "answered"): string {
  // By name first: a hot statement's text (kilobytes, built afresh by each compile) is compared,
  // not hashed, and the declared copy (hash already computed) is what travels on.
  const known = statementTexts.get(name);
  if (known !== undefined) {
    if (known !== text) throw new Error(`the prepared statement ${name} was given a second SQL text`);
    const declaredRole = statementsByText.get(known)?.role;
    if (declaredRole !== role)
      throw new Error(`the prepared statement ${name} was declared ${declaredRole}, now ${role}`);
    return known;
  }
  const declared = statementsByText.get(text);
  if (declared !== undefined)
    throw new Error(`the SQL text of ${declared.name} was declared again as ${name} (${role})`);
  statementTexts.set(name, text);
  statementsByText.set(text, { name, role });
  return text;
}

/** The name and role `text` was declared under, if any. */
export function namedStatement(text: string): NamedStatement | undefined {
  return statementsByText.get(text);
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
