import type { SqlEntityManager } from "@mikro-orm/sql";
import { type RawBuilder, sql } from "kysely";

export { sql };

/** Runs a kysely `sql` query inside the EntityManager's transaction (if any) and returns its rows. */
export async function rows<Row>(em: SqlEntityManager, query: RawBuilder<Row>): Promise<Row[]> {
  const result = await query.execute(em.getKysely());
  return result.rows;
}

export async function firstRow<Row>(em: SqlEntityManager, query: RawBuilder<Row>): Promise<Row | undefined> {
  return (await rows(em, query))[0];
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
