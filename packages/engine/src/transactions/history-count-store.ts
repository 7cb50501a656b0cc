import { sql } from "../persistence/sql.ts";
import { matched, scannedWallets } from "./matched-transactions-store.ts";
import { movedAmount } from "./moved-amount-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

const dayMs = 86_400_000;

/** The start of the UTC day `date` falls in. */
function utcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / dayMs) * dayMs);
}

/** Rows of part of a day, counted one by one, added to the days' counts or taken from them. */
interface EdgePart {
  readonly filter: TransactionFilter;
  readonly sign: 1 | -1;
}

/**
 * The filter's period as whole UTC days `[fromDay, untilDay)`, which the daily counts answer, and
 * what to add or take away at either end, counted row by row: at each end the shorter of the part
 * of the day inside the period (added) and the part outside (taken from the whole day), so an end
 * costs at most half a day's rows per wallet. REST's history asks whole days: no ends at all; a
 * search until a date's last millisecond takes away the rows of that last millisecond.
 */
export function splitPeriod(filter: TransactionFilter): {
  fromDay: Date | null;
  untilDay: Date | null;
  edges: EdgePart[];
} {
  const { from, until } = filter;
  // Rows before `from` on its day, and after `until` on its day.
  const before = (day: Date, end: Date): EdgePart => ({
    filter: { ...filter, from: day, fromExclusive: false, until: end, untilInclusive: false },
    sign: -1,
  });
  const after = (start: Date, dayEnd: Date): EdgePart => ({
    filter: {
      ...filter,
      from: start,
      fromExclusive: filter.untilInclusive,
      until: dayEnd,
      untilInclusive: false,
    },
    sign: -1,
  });
  const fromFloor = from === null ? null : utcDay(from);
  const untilFloor = until === null ? null : utcDay(until);
  if (from !== null && until !== null && fromFloor !== null && untilFloor !== null) {
    if (until < from) return { fromDay: fromFloor, untilDay: fromFloor, edges: [] };
    if (fromFloor.getTime() === untilFloor.getTime()) {
      const next = new Date(fromFloor.getTime() + dayMs);
      // Within one day: the period's rows, or the whole day's count less the rest of the day.
      if (until.getTime() - from.getTime() <= dayMs / 2) {
        return { fromDay: fromFloor, untilDay: fromFloor, edges: [{ filter, sign: 1 }] };
      }
      const edges = [after(until, next)];
      if (from.getTime() !== fromFloor.getTime()) edges.unshift(before(fromFloor, from));
      return { fromDay: fromFloor, untilDay: next, edges };
    }
  }
  const edges: EdgePart[] = [];
  let fromDay = fromFloor;
  if (from !== null && fromFloor !== null && from.getTime() !== fromFloor.getTime()) {
    const next = new Date(fromFloor.getTime() + dayMs);
    if (from.getTime() - fromFloor.getTime() <= dayMs / 2) edges.push(before(fromFloor, from));
    else {
      edges.push({ filter: { ...filter, until: next, untilInclusive: false }, sign: 1 });
      fromDay = next;
    }
  }
  let untilDay = untilFloor;
  if (until !== null && untilFloor !== null) {
    const next = new Date(untilFloor.getTime() + dayMs);
    if (next.getTime() - until.getTime() <= dayMs / 2) {
      edges.push(after(until, next));
      untilDay = next;
    } else if (until.getTime() !== untilFloor.getTime() || filter.untilInclusive) {
      edges.push({ filter: { ...filter, from: untilFloor, fromExclusive: false }, sign: 1 });
    }
  }
  return { fromDay, untilDay, edges };
}

/** Per currency: how many transactions the filter finds, and their amounts and fees (minor units). */
export interface CountedRow {
  currency_id: number;
  count: string;
  amount: string;
  commission: string;
}

/**
 * The count, amounts (as the rows show them: moved-amount-store.ts, which a counter row's status
 * decides as a transaction's does) and fees per currency of what `matched(userId, filter)` finds, without
 * reading what it finds: the months from `history_month_counts` (migration 0012), at most half a
 * month of days at either end from `history_counts` (migration 0009; a few rows per wallet and
 * day; `wholeMonths`), each with its deltas not folded yet (migration 0020, the `*_exact` views),
 * the partial days at the ends from the transactions (at most half a day's
 * rows per wallet). O(months + 31 days) per wallet whatever the history's size.
 *
 * Not under amount bounds: no counter says how many transactions of an amount there are; those
 * totals count the rows, up to a cap (capped-totals-store.ts).
 *
 * A wallet filter naming someone else's wallet counts every match instead, as before the counts
 * existed (only its transactions with the caller's wallets count, which no wallet's counts say).
 * The statement itself decides (`counted`), so that one text serves every other filter.
 */
export function countedTotals(userId: number, filter: TransactionFilter) {
  const everyMatch = (part: TransactionFilter, sign: 1 | -1 = 1) =>
    sql`select t.currency_id, ${sign}::integer as n, ${sign}::integer * ${movedAmount("t")} as amount_minor,
        ${sign}::integer * t.commission_minor as commission_minor
      from ${matched(userId, part)} as m join transactions t on t.id = m.id`;
  const { fromDay, untilDay, edges } = splitPeriod(filter);
  const { walletNumber, type, status } = filter;
  const scanned = scannedWallets(userId, walletNumber);
  const counted = sql`coalesce((select bool_and(s.own) from ${scanned} as s), true)`;
  // A text per number of ends (0 to 2, the sign is a parameter): each prepared once per connection.
  const ends = edges.map(
    (edge) => sql`union all select * from (${everyMatch(edge.filter, edge.sign)}) as edge where ${counted}`,
  );
  // The counter rows of the caller's wallets (or the one asked) in `[from, until)` of `grain`.
  const kept = ({ grain, span, sign }: SignedSpan) => {
    // The sign is a parameter: one text whether an end's days are added or taken away.
    const signed = sql`h.currency_id, ${sign}::integer * h.n as n, ${sign}::integer * ${movedAmount("h")} as amount_minor,
      ${sign}::integer * h.commission_minor as commission_minor`;
    const from = sql`coalesce(${isoDay(span.from)}::date, '-infinity')`;
    const until = sql`coalesce(${isoDay(span.until)}::date, 'infinity')`;
    // Of parameters only: an empty period is skipped once (a one-time filter), not probed per wallet.
    return sql`
    select ${signed}
    from ${scanned} as s join ${sql.raw(countsTables[grain])} h on h.wallet_id = s.id
    where ${from} < ${until} and s.own
      and h.${sql.raw(grain)} >= ${from} and h.${sql.raw(grain)} < ${until}
      and (${type}::smallint is null or h.type = ${type}::smallint)
      and (${status}::smallint is null or h.status = ${status}::smallint)
      -- One user's own transfer between two of its wallets counts once, unless one wallet is asked.
      and (${walletNumber}::text is not null or not h.internal)`;
  };
  return sql<CountedRow>`
    select currency_id, sum(n)::text as count, sum(amount_minor)::text as amount,
      sum(commission_minor)::text as commission
    from (
    ${sql.join(wholeMonths(fromDay, untilDay).map(kept), sql` union all `)}
    ${sql.join(ends, sql` `)}
    union all select * from (${everyMatch(filter)}) as other where not ${counted}) as part
    group by currency_id`;
}

/**
 * What each grain is read from (migrations 0009 and 0012): the folded counter rows plus the deltas
 * not folded yet (migration 0020), in the statement's one snapshot, so every total is exact.
 */
const countsTables = { day: "history_counts_exact", month: "history_month_counts_exact" } as const;

/** `[from, until)` in whole UTC days; null is unbounded on that side. */
interface DateSpan {
  readonly from: Date | null;
  readonly until: Date | null;
}

type Grain = keyof typeof countsTables;

/** Whole days read from the counts of one grain, added (1) or taken away (-1). */
interface SignedSpan {
  readonly grain: Grain;
  readonly span: DateSpan;
  readonly sign: 1 | -1;
}

const epoch = new Date(0);
const nothing: DateSpan = { from: epoch, until: epoch };

/** The first day of the calendar month a day falls in, and of the month after it (UTC). */
const monthStart = (day: Date) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
const nextMonth = (start: Date) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));

const daysBetween = (from: Date, until: Date) => (until.getTime() - from.getTime()) / dayMs;

const days = (from: Date | null, until: Date | null, sign: 1 | -1 = 1): SignedSpan => ({
  grain: "day",
  span: { from, until },
  sign,
});

/**
 * The whole days `[fromDay, untilDay)` as whole calendar months (read from the month counts) and,
 * at either end, the rest as days: a partial month is either its days inside the period, added,
 * or the whole month less its days outside the period, whichever is fewer days. So at most half a
 * month at each end, whatever the period's length (a period until today reads this month whole
 * less the days still to come, which hold no rows). A period inside one month is all days. Always
 * 3 spans (empty ones are `nothing`): one statement text.
 */
function wholeMonths(fromDay: Date | null, untilDay: Date | null): SignedSpan[] {
  const none = days(epoch, epoch);
  const fromUnit = fromDay === null ? null : monthStart(fromDay);
  const firstUnit =
    fromDay === null || fromUnit === null
      ? null
      : fromUnit.getTime() === fromDay.getTime()
        ? fromDay
        : nextMonth(fromUnit);
  const endUnit = untilDay === null ? null : monthStart(untilDay);
  if (firstUnit !== null && endUnit !== null && firstUnit >= endUnit) {
    return [{ grain: "month", span: nothing, sign: 1 }, days(fromDay, untilDay), none];
  }
  let units: DateSpan = { from: firstUnit, until: endUnit };
  let before = none;
  if (fromDay !== null && fromUnit !== null && firstUnit !== null && firstUnit > fromDay) {
    if (daysBetween(fromDay, firstUnit) > daysBetween(fromUnit, fromDay)) {
      units = { ...units, from: fromUnit };
      before = days(fromUnit, fromDay, -1);
    } else before = days(fromDay, firstUnit);
  }
  let after = none;
  if (untilDay !== null && endUnit !== null && untilDay > endUnit) {
    const unitEnd = nextMonth(endUnit);
    if (daysBetween(endUnit, untilDay) > daysBetween(untilDay, unitEnd)) {
      units = { ...units, until: unitEnd };
      after = days(untilDay, unitEnd, -1);
    } else after = days(endUnit, untilDay);
  }
  return [{ grain: "month", span: units, sign: 1 }, before, after];
}

function isoDay(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 10);
}

/** The prepared statement's name for `countedTotals(filter)` under `name`: one per text. */
export function countedName(name: string, filter: TransactionFilter): string {
  const ends = splitPeriod(filter).edges.length;
  return ends === 0 ? name : `${name}_${ends}`;
}

/**
 * How many transactions each UTC day of the filter's period holds at most, newest day first, from
 * the daily counts alone (no partial day is counted, amount bounds are ignored: an upper bound
 * per day). The export cuts the period into windows of about a page by these, so that each page
 * reads the index entries of its own window only. Empty when the counts cannot say (a wallet
 * filter naming someone else's wallet): the export then reads the period as one window.
 */
export function countedDays(userId: number, filter: TransactionFilter) {
  const { walletNumber, type, status } = filter;
  const scanned = scannedWallets(userId, walletNumber);
  return sql<{ day: string; n: string }>`
    select to_char(h.day, 'YYYY-MM-DD') as day, sum(h.n)::text as n
    from ${scanned} as s join history_counts_exact h on h.wallet_id = s.id
    where s.own
      and h.day >= coalesce(${isoDay(filter.from)}::date, '-infinity') and h.day <= coalesce(${isoDay(filter.until)}::date, 'infinity')
      and (${type}::smallint is null or h.type = ${type}::smallint)
      and (${status}::smallint is null or h.status = ${status}::smallint)
      and (${walletNumber}::text is not null or not h.internal)
    group by h.day having sum(h.n) > 0
    order by h.day desc`;
}
