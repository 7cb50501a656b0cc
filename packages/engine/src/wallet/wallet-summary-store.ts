import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql, toId } from "../persistence/sql.ts";

/** A wallet's number, currency and owner, without its balance. */
export interface WalletOwnership {
  readonly id: number;
  readonly number: string;
  readonly currencyId: number;
  readonly userId: number;
}

/** Any number of wallets in one query (the row locks and balances live in wallet-store.ts). */
export async function findWalletOwnerships(
  em: SqlEntityManager,
  ids: readonly number[],
): Promise<WalletOwnership[]> {
  const found = await rows(
    em,
    sql<{ id: string; number: string; currency_id: number; user_id: string }>`
      select id, number, currency_id, user_id from wallets where id = any(${[...ids]}::bigint[])`,
  );
  return found.map((row) => ({
    id: toId(row.id),
    number: row.number,
    currencyId: Number(row.currency_id),
    userId: toId(row.user_id),
  }));
}
