import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { parseInstant } from "../input/instant.ts";
import { formatMinor } from "../money/index.ts";
import { findBalanceHistoryRows } from "./balance-history-store.ts";

export interface BalancePoint {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  /** The wallet's balance at the end of that day (or now, for today), exact. */
  readonly balance: string;
}

export interface BalanceHistoryQuery {
  readonly wallet: string;
  /** First day (`YYYY-MM-DD`); default: 29 days before `until`. */
  readonly from?: string | null | undefined;
  /** Last day, included; default: today (UTC). */
  readonly until?: string | null | undefined;
}

/** At most a year and a day of points: a chart's range, and a bound on the work. */
export const maxBalanceHistoryDays = 366;
const defaultDays = 30;
const dayMs = 86_400_000;

/**
 * A wallet's closing balance for each UTC day of a range, for its owner (another user's wallet is
 * NOT_FOUND). Computed backwards from the balance row: the closing balance of the last day is the
 * balance less what moved after it, and each day before is the next one's less that day's postings.
 * The cost is one row per day the wallet moved from `from` on (`wallet_days`, migration 0011),
 * never its postings; exact (bigint minor units).
 */
export async function balanceHistory(
  deps: EngineDependencies,
  actor: Actor,
  query: BalanceHistoryQuery,
): Promise<BalancePoint[]> {
  requireAccess(actor);
  const until = query.until ? day(query.until, "until") : startOfDay(deps.now());
  const from = query.from ? day(query.from, "from") : new Date(until.getTime() - (defaultDays - 1) * dayMs);
  const days = Math.round((until.getTime() - from.getTime()) / dayMs) + 1;
  if (days < 1) throw new PurseError("INVALID_DATE", "from");
  if (days > maxBalanceHistoryDays) {
    throw new PurseError("OUT_OF_RANGE", "from", { min: 1, max: maxBalanceHistoryDays });
  }
  const end = new Date(until.getTime() + dayMs);
  const found = await deps.db.fresh((em) => findBalanceHistoryRows(em, query.wallet, from, end));
  if (!found || found.userId !== actor.userId) throw new PurseError("NOT_FOUND");
  const points: BalancePoint[] = [];
  let closing = found.closingMinor;
  for (let index = days - 1; index >= 0; index -= 1) {
    const label = new Date(from.getTime() + index * dayMs).toISOString().slice(0, 10);
    points.push({ day: label, balance: formatMinor(closing, found.precession) });
    closing -= found.deltas.get(label) ?? 0n;
  }
  return points.reverse();
}

/** A whole day only: a balance history has one point per day. */
function day(text: string, field: string): Date {
  const { date, dateOnly } = parseInstant(text, field);
  if (!dateOnly) throw new PurseError("INVALID_DATE", field);
  return date;
}

function startOfDay(now: Date): Date {
  return new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
}
