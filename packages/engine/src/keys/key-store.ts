import type { SqlEntityManager } from "@mikro-orm/sql";
import { isDistributed } from "../persistence/citus-routing.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";

/** Where a sealed column lives (sealed-columns.ts lists them). */
type SealedColumn = {
  readonly table: string;
  readonly column: string;
  readonly rowKey: string;
  readonly owner?: string;
};

/** A sealed value with the row it is bound to and, for an owned table, that row's owner. */
export interface SealedValue {
  readonly row_key: string;
  readonly owner: string | null;
  readonly sealed: string;
}

/** The settings row holding a key generated into the database (when PURSE_SECRET_KEY was unset). */
const storedKeySetting = "generated_secret_key";

export async function readStoredSecretKey(em: SqlEntityManager): Promise<string | undefined> {
  return (
    await firstRow(em, sql<{ value: string }>`select value from settings where key = ${storedKeySetting}`)
  )?.value;
}

/** Stores `key` unless a key is stored already (the first process of a deployment wins). */
export async function storeSecretKeyIfAbsent(em: SqlEntityManager, key: string): Promise<void> {
  await sql`insert into settings (key, value) values (${storedKeySetting}, ${JSON.stringify(
    key,
  )}::jsonb) on conflict (key) do nothing`.execute(em.getKysely());
}

export async function deleteStoredSecretKey(em: SqlEntityManager): Promise<void> {
  await sql`delete from settings where key = ${storedKeySetting}`.execute(em.getKysely());
}

/**
 * Every non-null value of a sealed column with its row key (and owner), locked until the
 * transaction ends. On Citus, which locks rows only in a statement routed to one shard, the table
 * is locked instead (`share row exclusive`: reads go on, a write waits for the commit, as it would
 * for the rows' locks).
 */
export async function lockSealedValues(em: SqlEntityManager, column: SealedColumn): Promise<SealedValue[]> {
  const distributed = isDistributed(em);
  if (distributed) await em.execute(`lock table ${column.table} in share row exclusive mode`);
  const owner = column.owner === undefined ? sql`null` : sql`${sql.ref(column.owner)}::text`;
  return rows(
    em,
    sql<SealedValue>`
      select ${sql.ref(column.rowKey)}::text as row_key, ${owner} as owner, ${sql.ref(column.column)} as sealed
      from ${sql.table(column.table)}
      where ${sql.ref(column.column)} is not null
      order by ${sql.ref(column.rowKey)}
      ${distributed ? sql`` : sql`for update`}`,
  );
}

/** Rewrites one sealed value, by its row key and (for an owned table: one shard on Citus) its owner. */
export async function writeSealedValue(
  em: SqlEntityManager,
  column: SealedColumn,
  value: SealedValue,
  sealed: string,
): Promise<void> {
  const owned =
    column.owner === undefined || value.owner === null
      ? sql``
      : sql`and ${sql.ref(column.owner)} = ${value.owner}::bigint`;
  await sql`update ${sql.table(column.table)} set ${sql.ref(column.column)} = ${sealed}
    where ${sql.ref(column.rowKey)} = ${value.row_key} ${owned}`.execute(em.getKysely());
}
