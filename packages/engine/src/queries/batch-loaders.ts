import type { Actor } from "../auth/actor.ts";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../ledger/currency-rows.ts";
import { firstRow, rows, sql, toId } from "../persistence/sql.ts";
import { type CurrencyView, currencyView } from "./views.ts";

/** One query for any number of currencies: what a GraphQL page's dataloader calls. */
export async function loadCurrencies(
  deps: EngineDependencies,
  ids: readonly number[],
): Promise<Map<number, CurrencyView>> {
  const found = await rows(
    deps.db.em(),
    sql<CurrencyColumns>`select ${sql.raw(currencyColumns)} from currencies c where c.id = any(${[...ids]}::int[])`,
  );
  return new Map(
    found.map((row) => [Number(row.c_id), currencyView(currencyFromRow(row) as CurrencyRecord)]),
  );
}

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

export interface UserProfile {
  readonly id: number;
  readonly name: string;
  readonly role: "merchant" | "partner";
  readonly blocked: boolean;
}

export async function getProfile(deps: EngineDependencies, actor: Actor): Promise<UserProfile> {
  const row = await firstRow(
    deps.db.em(),
    sql<{ id: string; name: string; role: "merchant" | "partner"; blocked: boolean }>`
      select id, name, role, blocked from users where id = ${actor.userId}`,
  );
  if (!row) throw new Error(`user ${actor.userId} behind a valid token is gone`);
  return { id: toId(row.id), name: row.name, role: row.role, blocked: row.blocked };
}
