import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql } from "../persistence/sql.ts";

/** Where a sealed column lives (sealed-columns.ts lists them). */
type SealedColumn = { readonly table: string; readonly column: string; readonly rowKey: string };

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

/** Every non-null value of a sealed column with its row key, locked until the transaction ends. */
export function lockSealedValues(
  em: SqlEntityManager,
  column: SealedColumn,
): Promise<{ row_key: string; sealed: string }[]> {
  return rows(
    em,
    sql<{ row_key: string; sealed: string }>`
      select ${sql.ref(column.rowKey)}::text as row_key, ${sql.ref(column.column)} as sealed
      from ${sql.table(column.table)}
      where ${sql.ref(column.column)} is not null
      order by ${sql.ref(column.rowKey)}
      for update`,
  );
}

export async function writeSealedValue(
  em: SqlEntityManager,
  column: SealedColumn,
  rowKey: string,
  sealed: string,
): Promise<void> {
  await sql`update ${sql.table(column.table)} set ${sql.ref(column.column)} = ${sealed}
    where ${sql.ref(column.rowKey)} = ${rowKey}`.execute(em.getKysely());
}
