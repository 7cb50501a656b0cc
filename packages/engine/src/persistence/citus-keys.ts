import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "./sql.ts";

/**
 * The constraints `purse citus distribute` (citus-distribution.ts) takes apart and puts back, read
 * from the catalogue rather than listed, so the step follows the schema the migrations made in
 * either schema (live and test mode's).
 */

/** A foreign key of a table in the distributed schemas, as `alter table … add constraint` takes it. */
export interface ForeignKey {
  /** The referencing table, schema-qualified. */
  readonly table: string;
  readonly name: string;
  /** `pg_get_constraintdef`: `FOREIGN KEY (…) REFERENCES …`. */
  readonly definition: string;
  /** Whether it references a table that becomes a reference table (Citus allows those). */
  readonly toReference: boolean;
}

/** The tables that become reference tables, in either schema (test mode keeps its own clients). */
const sharedTables = ["users", "clients", "currencies", "rates", "settings"];

export async function referencingKeys(
  em: SqlEntityManager,
  schemas: readonly string[],
): Promise<ForeignKey[]> {
  const found = await rows(
    em,
    sql<{ table: string; name: string; definition: string; to_reference: boolean }>`
      select quote_ident(n.nspname) || '.' || quote_ident(t.relname) as table, c.conname as name,
        pg_get_constraintdef(c.oid) as definition,
        (select r.relname from pg_class r where r.oid = c.confrelid) = any(${sharedTables}::text[]) as to_reference
      from pg_constraint c
      join pg_class t on t.oid = c.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      where c.contype = 'f' and n.nspname = any(${[...schemas]}::text[])
      order by 1, 2`,
  );
  return found.map((key) => ({
    table: key.table,
    name: key.name,
    definition: key.definition,
    toReference: key.to_reference,
  }));
}

/**
 * The statements that give `table`'s primary key, uniques and unique indexes without the `owner`
 * column that column, appended: Citus enforces a unique only within a shard, so it takes one only
 * if it includes the distribution column. A lookup by the leading columns still uses the index.
 */
export async function ownerKeysFor(em: SqlEntityManager, table: string, owner: string): Promise<string[]> {
  const found = await rows(
    em,
    sql<{
      index: string;
      constraint: string | null;
      kind: string | null;
      columns: string;
      definition: string;
    }>`
      select i.indexrelid::regclass::text as index, c.conname as constraint, c.contype::text as kind,
        (select string_agg(quote_ident(a.attname), ', ' order by k.n)
         from unnest(i.indkey::int2[]) with ordinality as k(attnum, n)
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns,
        pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      left join pg_constraint c on c.conindid = i.indexrelid and c.conrelid = i.indrelid and c.contype in ('p', 'u')
      where i.indrelid = ${table}::regclass and i.indisunique
        and not exists (
          select 1 from pg_attribute a
          where a.attrelid = i.indrelid and a.attname = ${owner} and a.attnum = any(i.indkey::int2[]))
      order by 1`,
  );
  return found.flatMap((unique) => {
    if (unique.constraint !== null) {
      const kind = unique.kind === "p" ? "primary key" : "unique";
      return [
        `alter table ${table} drop constraint "${unique.constraint}",
          add constraint "${unique.constraint}" ${kind} (${unique.columns}, ${owner})`,
      ];
    }
    // A unique index of its own (partial ones among them): the same index, the owner appended to
    // its column list (`… USING btree (columns) [WHERE …]`).
    const columnsEnd = unique.definition.indexOf(")", unique.definition.indexOf("USING"));
    return [
      `drop index ${unique.index}`,
      `${unique.definition.slice(0, columnsEnd)}, ${owner}${unique.definition.slice(columnsEnd)}`,
    ];
  });
}
