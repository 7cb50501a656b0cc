import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, type SqlRunner, sql } from "../persistence/sql.ts";

/** Operator switches kept in the `settings` table; read per call so every process sees a change at once. */
export async function isVoucherActivationEnabled(em: SqlRunner): Promise<boolean> {
  const row = await firstRow(
    em,
    sql<{ value: unknown }>`select value from settings where key = 'voucher_activation_enabled'`,
  );
  return row === undefined ? true : row.value === true || row.value === "true";
}

export async function setSetting(em: SqlEntityManager, key: string, value: unknown): Promise<void> {
  await sql`insert into settings (key, value) values (${key}, ${JSON.stringify(value)}::jsonb)
    on conflict (key) do update set value = excluded.value`.execute(em.getKysely());
}
