import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { rows, sql, toId } from "../persistence/sql.ts";

export interface WalletSummary {
  readonly id: number;
  readonly number: string;
  readonly currencyId: number;
  /** Only the owner sees balances; other parties see the number and currency. */
  readonly ownedByCaller: boolean;
}

/** One query for any number of wallets (transactions show the other party's wallet number too). */
export async function loadWalletSummaries(
  deps: EngineDependencies,
  actor: Actor,
  ids: readonly number[],
): Promise<Map<number, WalletSummary>> {
  const found = await rows(
    deps.db.em(),
    sql<{ id: string; number: string; currency_id: number; user_id: string }>`
      select id, number, currency_id, user_id from wallets where id = any(${[...ids]}::bigint[])`,
  );
  return new Map(
    found.map((row) => [
      toId(row.id),
      {
        id: toId(row.id),
        number: row.number,
        currencyId: Number(row.currency_id),
        ownedByCaller: toId(row.user_id) === actor.userId,
      },
    ]),
  );
}
