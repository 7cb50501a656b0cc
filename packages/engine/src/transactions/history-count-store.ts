import { sql } from "../persistence/sql.ts";
import { matched, scannedWallets } from "./matched-transactions-store.ts";
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
 * The count, amounts and fees per currency of what `matched(userId, filter)` finds, without
 * reading what it finds: the months from `history_month_counts` (migration 0012), at most half a
 * month of days at either end from `history_counts` (migration 0009; a few rows per wallet and
 * day; `wholeMonths`), the partial days at the ends from the transactions (at most half a day's
 * rows per wallet). O(months + 31 days) per wallet whatever the history's size.
 *
 * Under amount bounds the whole days are read from the amount counts (migrations 0013 and 0014):
 * whole years, then months and days at either end (`wholeYears`), and in each period only the
 * buckets inside the bounds whose parent is not (`bucketsRead`), down to exact amounts in the
 * buckets that hold a bound: O(years + 12 months + 31 days) × O(levels × 10) rows per wallet, none
 * of them read row by row.
 *
 * A wallet filter naming someone else's wallet counts every match instead, as before the counts
 * existed (only its transactions with the caller's wallets count, which no wallet's counts say).
 * The statement itself decides (`counted`), so that one text serves every other filter.
 */
export function countedTotals(userId: number, filter: TransactionFilter) {
  const everyMatch = (part: TransactionFilter, sign: 1 | -1 = 1) =>
    sql`select t.currency_id, ${sign}::integer as n, ${sign}::integer * t.amount_minor as amount_minor,
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
  const bounded = filter.minAmount !== null || filter.maxAmount !== null;
  // The counter rows of the caller's wallets (or the one asked) in `[from, until)` of `grain`:
  // without amount bounds every row; with them the amount buckets inside the bounds.
  const kept = ({ grain, span, sign }: SignedSpan) => {
    // The sign is a parameter: one text whether an end's days are added or taken away.
    const signed = sql`h.currency_id, ${sign}::integer * h.n as n, ${sign}::integer * h.amount_minor as amount_minor,
      ${sign}::integer * h.commission_minor as commission_minor`;
    const table = countsTable(grain, bounded);
    const from = sql`coalesce(${isoDay(span.from)}::date, '-infinity')`;
    const until = sql`coalesce(${isoDay(span.until)}::date, 'infinity')`;
    const conditions = sql`h.${sql.raw(grain)} >= ${from} and h.${sql.raw(grain)} < ${until}
      and (${type}::smallint is null or h.type = ${type}::smallint)
      and (${status}::smallint is null or h.status = ${status}::smallint)
      -- One user's own transfer between two of its wallets counts once, unless one wallet is asked.
      and (${walletNumber}::text is not null or not h.internal)`;
    // Of parameters only: an empty period is skipped once (a one-time filter), not probed per wallet.
    const nonEmpty = sql`${from} < ${until}`;
    if (!bounded)
      return sql`
    select ${signed}
    from ${scanned} as s join ${sql.raw(table)} h on h.wallet_id = s.id
    where ${nonEmpty} and s.own and ${conditions}`;
    // Per wallet and `(level, parent)`, one range of the table's key (wallet, level, parent, period):
    // `offset 0` keeps the lateral subquery a parameterized index scan instead of letting the
    // planner join every bucket row of the wallet's period to the few ranges wanted.
    return sql`
    select ${signed}
    from ${scanned} as s cross join wanted as w
    cross join lateral (select h.* from ${sql.raw(table)} h
      where h.wallet_id = s.id and h.level = w.level and h.parent = w.parent
        and h.currency_id = w.currency_id and ${conditions}
      offset 0) as h
    where ${nonEmpty} and s.own and h.lower >= w.lo
      and (w.hi is null or greatest(h.lower, h.lower + coalesce(w.width, h.lower * 9) - 1) <= w.hi)`;
  };
  // The bucket ranges, computed once (materialized), not once per wallet.
  const buckets = bounded ? sql`with wanted as materialized ${bucketsRead(amountBounds(filter))} ` : sql``;
  const periods = bounded ? wholeYears(fromDay, untilDay) : wholeMonths(fromDay, untilDay);
  return sql<CountedRow>`${buckets}${perCurrency(sql`
    ${sql.join(periods.map(kept), sql` union all `)}
    ${sql.join(ends, sql` `)}
    union all select * from (${everyMatch(filter)}) as other where not ${counted}`)}`;
}

/** The counter table per grain: per amount bucket (0013, 0014), or of every transaction side (0009, 0012). */
function countsTable(grain: Grain, bounded: boolean): string {
  if (bounded) {
    return {
      day: "history_amount_counts",
      month: "history_amount_month_counts",
      year: "history_amount_year_counts",
    }[grain];
  }
  // Unbounded totals are read by whole months (`wholeMonths`): there are no year counts for them.
  if (grain === "year") throw new Error("no year counts without amount bounds");
  return { day: "history_counts", month: "history_month_counts" }[grain];
}

function perCurrency(parts: ReturnType<typeof sql>) {
  return sql<CountedRow>`
    select currency_id, sum(n)::text as count, sum(amount_minor)::text as amount,
      sum(commission_minor)::text as commission
    from (${parts}) as part group by currency_id`;
}

/** The largest bigint: amounts are at most this, so a bound past it is clamped to it for bucketing. */
const largestAmount = "9223372036854775807";

/**
 * Per currency, the amount bounds in its minor units, exact (`lo`, `hi`: numeric, `hi` null when
 * unbounded; an amount is inside when `lo <= amount_minor <= hi`) and clamped into the amounts'
 * range for finding their buckets (`lo_at`, `hi_at`).
 */
function amountBounds(filter: TransactionFilter) {
  const { minAmount, maxAmount } = filter;
  const scale = sql`power(10::numeric, c.precession)`;
  return sql`(select x.currency_id, x.lo, x.hi,
      least(greatest(x.lo, 0), ${largestAmount}::numeric)::bigint as lo_at,
      least(greatest(coalesce(x.hi, 0), 0), ${largestAmount}::numeric)::bigint as hi_at
    from (select c.id as currency_id, coalesce(ceil(${minAmount}::numeric * ${scale}), 0) as lo,
            floor(${maxAmount}::numeric * ${scale}) as hi
          from currencies c) as x)`;
}

/** Whether the bucket of `level` starting at `lower` lies inside the bounds `w` (w.lo, w.hi). */
function inside(level: ReturnType<typeof sql>, lower: ReturnType<typeof sql>) {
  return sql`(${lower} >= w.lo and (w.hi is null or history_amount_bucket_end(${level}, ${lower}) <= w.hi))`;
}

/**
 * The `(level, parent)` ranges of counter rows a total under the bounds reads, per currency: every
 * decade, the first digits under the decades of `lo` and `hi`, the two-digit buckets under their
 * first digits, the exact amounts (level 3, migration 0014) under their two-digit buckets, less the
 * ranges whose parent lies inside the bounds (counted a level up). Every bucket inside the bounds
 * whose parent is not lies in one of these. `width`: the size of each bucket of the range (all
 * siblings have their parent's number of digits; 1 for an exact amount); null for decades, whose
 * size is nine times their start.
 */
function bucketsRead(bounds: ReturnType<typeof sql>) {
  return sql`(select distinct w.currency_id, w.lo, w.hi, r.level, r.parent,
      case when r.level = 3 then 1
        when r.level > 0 then power(10::numeric, greatest(0, length(r.parent::text) - r.level)) end as width
    from ${bounds} as w
    cross join lateral (values (0, 0::bigint),
      (1, history_amount_bucket(0, w.lo_at)), (2, history_amount_bucket(1, w.lo_at)),
      (1, case when w.hi is not null then history_amount_bucket(0, w.hi_at) end),
      (2, case when w.hi is not null then history_amount_bucket(1, w.hi_at) end),
      (3, history_amount_bucket(2, w.lo_at)),
      (3, case when w.hi is not null then history_amount_bucket(2, w.hi_at) end)) as r(level, parent)
    where r.parent is not null and not (r.level > 0 and ${inside(sql`r.level - 1`, sql`r.parent`)}))`;
}

/** `[from, until)` in whole UTC days; null is unbounded on that side. */
interface DateSpan {
  readonly from: Date | null;
  readonly until: Date | null;
}

type Grain = "day" | "month" | "year";

/** Whole days read from the counts of one grain, added (1) or taken away (-1). */
interface SignedSpan {
  readonly grain: Grain;
  readonly span: DateSpan;
  readonly sign: 1 | -1;
}

const epoch = new Date(0);
const nothing: DateSpan = { from: epoch, until: epoch };

/** A calendar unit: the first day of the one a day falls in, and of the one after it (UTC). */
const calendarUnits = {
  month: {
    start: (day: Date) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)),
    next: (start: Date) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)),
  },
  year: {
    start: (day: Date) => new Date(Date.UTC(day.getUTCFullYear(), 0, 1)),
    next: (start: Date) => new Date(Date.UTC(start.getUTCFullYear() + 1, 0, 1)),
  },
} as const;

const daysBetween = (from: Date, until: Date) => (until.getTime() - from.getTime()) / dayMs;

type Cover = (from: Date | null, until: Date | null) => SignedSpan[];

const negated = (spans: SignedSpan[]) =>
  spans.map((s): SignedSpan => ({ ...s, sign: s.sign === 1 ? -1 : 1 }));

/**
 * The whole days `[fromDay, untilDay)` as whole units of `grain` (read from that grain's counts)
 * and, at either end, the rest covered by `finer`: a partial unit is either its part inside the
 * period, added, or the whole unit less its part outside the period, whichever is fewer days. So at
 * most half a unit at each end, whatever the period's length (a period until today reads this unit
 * whole less the days still to come, which hold no rows). A period inside one unit is all `finer`.
 * Always the same number of spans for one `finer` (empty ones are `nothing`): one statement text.
 */
function whole(
  grain: "month" | "year",
  fromDay: Date | null,
  untilDay: Date | null,
  finer: Cover,
): SignedSpan[] {
  const { start, next } = calendarUnits[grain];
  const none = finer(epoch, epoch);
  const fromUnit = fromDay === null ? null : start(fromDay);
  const firstUnit =
    fromDay === null || fromUnit === null
      ? null
      : fromUnit.getTime() === fromDay.getTime()
        ? fromDay
        : next(fromUnit);
  const endUnit = untilDay === null ? null : start(untilDay);
  if (firstUnit !== null && endUnit !== null && firstUnit >= endUnit) {
    return [{ grain, span: nothing, sign: 1 }, ...finer(fromDay, untilDay), ...none];
  }
  let units: DateSpan = { from: firstUnit, until: endUnit };
  let before = none;
  if (fromDay !== null && fromUnit !== null && firstUnit !== null && firstUnit > fromDay) {
    if (daysBetween(fromDay, firstUnit) > daysBetween(fromUnit, fromDay)) {
      units = { ...units, from: fromUnit };
      before = negated(finer(fromUnit, fromDay));
    } else before = finer(fromDay, firstUnit);
  }
  let after = none;
  if (untilDay !== null && endUnit !== null && untilDay > endUnit) {
    const unitEnd = next(endUnit);
    if (daysBetween(endUnit, untilDay) > daysBetween(untilDay, unitEnd)) {
      units = { ...units, until: unitEnd };
      after = negated(finer(untilDay, unitEnd));
    } else after = finer(endUnit, untilDay);
  }
  return [{ grain, span: units, sign: 1 }, ...before, ...after];
}

const days: Cover = (from, until) => [{ grain: "day", span: { from, until }, sign: 1 }];

/** Calendar months, and at most half a month of days at either end: 3 spans. */
const wholeMonths: Cover = (from, until) => whole("month", from, until, days);

/**
 * Calendar years, and at either end at most half a year of months and half a month of days:
 * 7 spans (the amount counts have a year grain, migration 0014).
 */
const wholeYears: Cover = (from, until) => whole("year", from, until, wholeMonths);

function isoDay(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 10);
}

/** The prepared statement's name for `countedTotals(filter)` under `name`: one per text. */
export function countedName(name: string, filter: TransactionFilter): string {
  const base = filter.minAmount !== null || filter.maxAmount !== null ? `${name}_amounts` : name;
  const ends = splitPeriod(filter).edges.length;
  return ends === 0 ? base : `${base}_${ends}`;
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
    from ${scanned} as s join history_counts h on h.wallet_id = s.id
    where s.own
      and h.day >= coalesce(${isoDay(filter.from)}::date, '-infinity') and h.day <= coalesce(${isoDay(filter.until)}::date, 'infinity')
      and (${type}::smallint is null or h.type = ${type}::smallint)
      and (${status}::smallint is null or h.status = ${status}::smallint)
      and (${walletNumber}::text is not null or not h.internal)
    group by h.day having sum(h.n) > 0
    order by h.day desc`;
}
