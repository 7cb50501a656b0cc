import type { SqlEntityManager } from "@mikro-orm/sql";
import { type RawBuilder, sql } from "kysely";

export { sql };

/**
 * Runs a kysely `sql` query inside the EntityManager's transaction (if any) and returns its rows.
 * With `prepareAs`, the statement is sent as a named prepared statement on PostgreSQL (see
 * `nameStatement`): each connection parses and plans it once, then only binds and executes it.
 */
export async function rows<Row>(
  em: SqlEntityManager,
  query: RawBuilder<Row>,
  prepareAs?: string,
): Promise<Row[]> {
  const kysely = em.getKysely();
  if (prepareAs === undefined) return (await query.execute(kysely)).rows;
  const compiled = query.compile(kysely);
  nameStatement(prepareAs, compiled.sql);
  return (await kysely.executeQuery(compiled)).rows;
}

export async function firstRow<Row>(
  em: SqlEntityManager,
  query: RawBuilder<Row>,
  prepareAs?: string,
): Promise<Row | undefined> {
  return (await rows(em, query, prepareAs))[0];
}

/** SQL text → statement name, for the connection class (prepared-pg-client.ts) to look up. */
const statementNames = new Map<string, string>();
const statementTexts = new Map<string, string>();

/**
 * Declares `text` as the one SQL text of the prepared statement `name`. Kysely and MikroORM send
 * every statement unnamed (parsed and planned on each call), and pass the driver only the text and
 * the values, so the name travels by this map: the PostgreSQL connection class sends a known text
 * under its name. A name is bound to one text for the life of the process: a query whose text
 * varies (a list spliced in, an optional clause) must not be named, and throws here if it is.
 */
export function nameStatement(name: string, text: string): void {
  if (statementNames.get(text) === name) return;
  const known = statementTexts.get(name);
  if (known !== undefined && known !== text)
    throw new Error(`the prepared statement ${name} was given a second SQL text`);
  statementTexts.set(name, text);
  statementNames.set(text, name);
}

/** The name `text` was declared under, if any. */
export function statementName(text: string): string | undefined {
  return statementNames.get(text);
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
