import { sql } from "../persistence/sql.ts";
import { everyMatchOnce, matched, scannedWallets } from "./matched-transactions-store.ts";
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
 * Under amount bounds the same periods are read from the amount buckets' counts (migration 0013,
 * `amountBucketTotals`): the buckets inside the bounds, and the rows of at most two boundary
 * buckets in the whole days.
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
  const { months, before, after } = wholeMonths(fromDay, untilDay);
  const bounded = filter.minAmount !== null || filter.maxAmount !== null;
  const bounds = amountBounds(filter);
  // The counter rows of the caller's wallets (or the one asked) in `[from, until)` of `column`:
  // without amount bounds every row; with them the amount buckets inside the bounds.
  const kept = (grain: "day" | "month", span: DateSpan, sign: 1 | -1) => {
    // The sign is a parameter: one text whether an end's days are added or taken away.
    const signed = sql`h.currency_id, ${sign}::integer * h.n as n, ${sign}::integer * h.amount_minor as amount_minor,
      ${sign}::integer * h.commission_minor as commission_minor`;
    const table = bounded
      ? { day: "history_amount_counts", month: "history_amount_month_counts" }[grain]
      : { day: "history_counts", month: "history_month_counts" }[grain];
    const conditions = sql`h.${sql.raw(grain)} >= coalesce(${isoDay(span.from)}::date, '-infinity')
      and h.${sql.raw(grain)} < coalesce(${isoDay(span.until)}::date, 'infinity')
      and (${type}::smallint is null or h.type = ${type}::smallint)
      and (${status}::smallint is null or h.status = ${status}::smallint)
      -- One user's own transfer between two of its wallets counts once, unless one wallet is asked.
      and (${walletNumber}::text is not null or not h.internal)`;
    if (!bounded)
      return sql`
    select ${signed}
    from ${scanned} as s join ${sql.raw(table)} h on h.wallet_id = s.id
    where s.own and ${conditions}`;
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
    where s.own and h.lower >= w.lo
      and (w.hi is null or greatest(h.lower, h.lower + coalesce(w.width, h.lower * 9) - 1) <= w.hi)`;
  };
  // The rows of the boundary buckets in the whole days the counts cover, one by one.
  const boundary = bounded
    ? sql`union all select m.currency_id, 1 as n, m.amount_minor, m.commission_minor
        from ${everyMatchOnce(
          userId,
          { ...filter, from: fromDay, fromExclusive: false, until: untilDay, untilInclusive: false },
          sql`boundary`,
        )} as m
        where ${counted}`
    : sql``;
  // The ranges and boundary buckets, computed once (materialized), not once per wallet.
  const buckets = bounded
    ? sql`with wanted as materialized ${bucketsRead(bounds)},
        boundary as materialized ${boundaryBuckets(bounds)} `
    : sql``;
  return sql<CountedRow>`${buckets}${perCurrency(sql`
    ${kept("month", months, 1)}
    union all ${kept("day", before.span, before.sign)}
    union all ${kept("day", after.span, after.sign)}
    ${boundary}
    ${sql.join(ends, sql` `)}
    union all select * from (${everyMatch(filter)}) as other where not ${counted}`)}`;
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
 * first digits, less the ranges whose parent lies inside the bounds (counted a level up). Every
 * bucket inside the bounds whose parent is not lies in one of these. `width`: the size of each
 * bucket of the range (all siblings have their parent's number of digits); null for decades,
 * whose size is nine times their start.
 */
function bucketsRead(bounds: ReturnType<typeof sql>) {
  return sql`(select distinct w.currency_id, w.lo, w.hi, r.level, r.parent,
      case when r.level > 0 then power(10::numeric, greatest(0, length(r.parent::text) - r.level)) end as width
    from ${bounds} as w
    cross join lateral (values (0, 0::bigint),
      (1, history_amount_bucket(0, w.lo_at)), (2, history_amount_bucket(1, w.lo_at)),
      (1, case when w.hi is not null then history_amount_bucket(0, w.hi_at) end),
      (2, case when w.hi is not null then history_amount_bucket(1, w.hi_at) end)) as r(level, parent)
    where r.parent is not null and not (r.level > 0 and ${inside(sql`r.level - 1`, sql`r.parent`)}))`;
}

/**
 * The two-digit buckets that hold a bound without lying inside the bounds, per currency (at most
 * two): their transactions are counted one by one.
 */
function boundaryBuckets(bounds: ReturnType<typeof sql>) {
  return sql`(select distinct w.currency_id, r.lower
    from ${bounds} as w
    cross join lateral (values (history_amount_bucket(2, w.lo_at)),
      (case when w.hi is not null then history_amount_bucket(2, w.hi_at) end)) as r(lower)
    where r.lower is not null and not ${inside(sql`2`, sql`r.lower`)})`;
}

/** `[from, until)` in whole UTC days; null is unbounded on that side. */
interface DateSpan {
  readonly from: Date | null;
  readonly until: Date | null;
}

const nothing: DateSpan = { from: new Date(0), until: new Date(0) };

function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/** Days read from the day counts, added (1) or taken from a whole month read (-1). */
interface SignedDays {
  readonly span: DateSpan;
  readonly sign: 1 | -1;
}

const daysBetween = (from: Date, until: Date) => (until.getTime() - from.getTime()) / dayMs;

/**
 * The whole days `[fromDay, untilDay)` as calendar months (read from the month counts) and days
 * (read from the day counts) at either end: a partial month is either its days inside the period,
 * added, or the whole month less its days outside the period, whichever is fewer days. So at most
 * half a month of days at each end, whatever the period's length (a period until today reads this
 * month whole less the days still to come, which hold no rows). A period inside one month is all
 * days.
 */
function wholeMonths(
  fromDay: Date | null,
  untilDay: Date | null,
): { months: DateSpan; before: SignedDays; after: SignedDays } {
  const none: SignedDays = { span: nothing, sign: 1 };
  const fromMonth = fromDay === null ? null : monthStart(fromDay);
  const firstMonth =
    fromDay === null || fromMonth === null
      ? null
      : fromMonth.getTime() === fromDay.getTime()
        ? fromDay
        : nextMonth(fromMonth);
  const endMonth = untilDay === null ? null : monthStart(untilDay);
  if (firstMonth !== null && endMonth !== null && firstMonth >= endMonth) {
    return { months: nothing, before: { span: { from: fromDay, until: untilDay }, sign: 1 }, after: none };
  }
  let months: DateSpan = { from: firstMonth, until: endMonth };
  let before = none;
  if (fromDay !== null && fromMonth !== null && firstMonth !== null && firstMonth > fromDay) {
    if (daysBetween(fromDay, firstMonth) > daysBetween(fromMonth, fromDay)) {
      months = { ...months, from: fromMonth };
      before = { span: { from: fromMonth, until: fromDay }, sign: -1 };
    } else before = { span: { from: fromDay, until: firstMonth }, sign: 1 };
  }
  let after = none;
  if (untilDay !== null && endMonth !== null && untilDay > endMonth) {
    const monthEnd = nextMonth(endMonth);
    if (daysBetween(endMonth, untilDay) > daysBetween(untilDay, monthEnd)) {
      months = { ...months, until: monthEnd };
      after = { span: { from: untilDay, until: monthEnd }, sign: -1 };
    } else after = { span: { from: endMonth, until: untilDay }, sign: 1 };
  }
  return { months, before, after };
}

function nextMonth(month: Date): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
}

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
