import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { findEnabledCurrencies } from "./currency-store.ts";
import { decimalText } from "./currency-view.ts";

/** A currency as the currency list shows it: rate as exact decimal text. */
export interface CurrencyListing {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly prefix: string;
  /** USD per unit, exact decimal text. */
  readonly rate: string;
  /** When the rate was last set: `YYYY-MM-DD HH:MM:SS`, UTC (migration 0003 says how it is kept). */
  readonly rateUpdatedAt: string;
  /** Decimal places (the currency's `precession`). */
  readonly decimals: number;
}

/**
 * The currencies a caller can operate in: enabled ones, by id. A disabled currency is left out,
 * since every operation in it would fail with `Currency is disabled`.
 */
export async function listCurrencies(deps: EngineDependencies, actor: Actor): Promise<CurrencyListing[]> {
  requireAccess(actor);
  const found = await deps.db.fresh((em) => findEnabledCurrencies(em));
  return found.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    prefix: row.prefix,
    rate: decimalText(row.rate),
    rateUpdatedAt: formatTimestamp(row.rateUpdatedAt),
    decimals: row.precession,
  }));
}
