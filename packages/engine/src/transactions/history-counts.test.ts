import { createTestEngine, type TestEngine } from "@purse/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import {
  TransactionStatus,
  TransactionType,
  transactionStatusName,
  transactionTypeName,
} from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { rows, sql } from "../persistence/sql.ts";
import { setStatementClock } from "../persistence/statement-clock.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { listHistory } from "./list-history.ts";
import { searchTransactions } from "./transaction-search.ts";

/**
 * The history's totals come from daily and monthly counts (migrations 0009 and 0012; appended by the
 * movement's statement since 0021, by triggers on a status change or a deletion), not from the rows, and under amount bounds from the rows counted up to a cap (fewer
 * rows here than the cap: exact): here they are compared with a count done in JavaScript over the
 * very rows inserted, for random filters (period, wallet, type, status, amounts), after inserts,
 * status changes and deletions, on both the REST history (total, last page, whether a page
 * follows, page items) and the search (totals per currency, first page).
 */
const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const dayMs = 86_400_000;

interface Row {
  id: number;
  from: number | null;
  to: number | null;
  currency: number;
  type: number;
  status: number;
  amount: bigint;
  commission: bigint;
  at: Date;
}

interface Wallet {
  id: number;
  user: number;
  number: string;
  currency: number;
}

/** An amount in minor units: small, anywhere up to 10^7, or on or next to a bucket edge (d·10^e, dd·10^e). */
function amountArbitrary(): fc.Arbitrary<bigint> {
  const edge = fc
    .record({
      digits: fc.integer({ min: 1, max: 99 }),
      exponent: fc.integer({ min: 0, max: 5 }),
      step: fc.constantFrom(-1n, 0n, 0n, 1n),
    })
    .map(({ digits, exponent, step }) => {
      const amount = BigInt(digits) * 10n ** BigInt(exponent) + step;
      return amount < 0n ? 0n : amount;
    });
  return fc.oneof(fc.bigInt({ min: 0n, max: 2_000n }), fc.bigInt({ min: 0n, max: 10_000_000n }), edge);
}

describe("history totals from the daily counts", () => {
  let engine: TestEngine;
  let wallets: Wallet[];
  let inserted: Row[] = [];
  /** The rows this test inserted (the fixture's have postings and are not deleted). */
  const generatedIds = new Set<number>();
  const today = Math.floor(Date.now() / dayMs) * dayMs;

  beforeAll(async () => {
    engine = await createTestEngine();
    const em = engine.deps.db.em();
    const found = await rows(
      em,
      sql<{ id: string; user_id: string; number: string; currency_id: number }>`
        select id, user_id, number, currency_id from wallets order by id`,
    );
    wallets = found.map((w) => ({
      id: Number(w.id),
      user: Number(w.user_id),
      number: w.number,
      currency: Number(w.currency_id),
    }));
    // The fixture's own transactions (opening balances, vouchers) are part of the history too.
    const existing = await rows(
      em,
      sql<{
        id: string;
        wallet_from_id: string | null;
        wallet_to_id: string | null;
        currency_id: number;
        type: number;
        status: number;
        amount_minor: string;
        commission_minor: string;
        created_at: Date;
      }>`select id, wallet_from_id, wallet_to_id, currency_id, type, status, amount_minor, commission_minor,
          created_at from transactions`,
    );
    inserted = existing.map((row) => ({
      id: Number(row.id),
      from: row.wallet_from_id === null ? null : Number(row.wallet_from_id),
      to: row.wallet_to_id === null ? null : Number(row.wallet_to_id),
      currency: Number(row.currency_id),
      type: Number(row.type),
      status: Number(row.status),
      amount: BigInt(row.amount_minor),
      commission: BigInt(row.commission_minor),
      at: new Date(row.created_at),
    }));
  });
  afterAll(() => engine?.close());

  const own = () => wallets.filter((w) => w.user === acme.userId).map((w) => w.id);

  async function insert(count: number, seed: number): Promise<void> {
    const walletIds = wallets.map((w) => w.id);
    const generated = fc.sample(
      fc.record({
        from: fc.option(fc.constantFrom(...walletIds), { freq: 6 }),
        to: fc.option(fc.constantFrom(...walletIds), { freq: 6 }),
        type: fc.constantFrom(...Object.values(TransactionType)),
        status: fc.constantFrom(...Object.values(TransactionStatus)),
        // Amounts over several decades: small ones, any up to 10^7, and round amounts and their
        // neighbours.
        amount: amountArbitrary(),
        commission: fc.bigInt({ min: 0n, max: 50n }),
        // Days before today (the last week mostly, then about three months: whole calendar months
        // are read from the month counts; then about three years), and a time in the day:
        // midnight itself now and then.
        day: fc.oneof(
          fc.integer({ min: 0, max: 6 }),
          fc.integer({ min: 0, max: 95 }),
          fc.integer({ min: 0, max: 1_100 }),
        ),
        second: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 86_399 })),
      }),
      { numRuns: count, seed },
    );
    for (const row of generated) {
      const currency = wallets.find((w) => w.id === (row.from ?? row.to))?.currency ?? 1;
      const at = new Date(today - row.day * dayMs + row.second * 1000);
      // Through the movement's own statement, which writes the counters' deltas (migration 0021),
      // at the row's time (the statement clock) and with no postings: the counts follow the rows.
      const created = await engine.deps.db.transact(async (tx) => {
        await setStatementClock(tx, at);
        return recordMovement(tx, {
          userId: acme.userId,
          type: row.type,
          status: row.status,
          label: "",
          walletFromId: row.from,
          walletToId: row.to,
          currencyId: currency,
          amountMinor: row.amount,
          commissionMinor: row.commission,
          amountFromMinor: 0n,
          amountToMinor: 0n,
          legs: [],
        });
      });
      inserted.push({ ...row, id: created.id, currency, at });
      generatedIds.add(created.id);
    }
  }

  /** On or next to an inserted amount: inside a two-digit bucket that holds rows. */
  const nearRow = () =>
    fc
      .record({ row: fc.constantFrom(...inserted), step: fc.constantFrom(-1n, 0n, 0n, 1n) })
      .map(({ row, step }) => (row.amount + step < 0n ? 0n : row.amount + step));

  const boundArbitrary = () => fc.oneof(amountArbitrary(), nearRow());

  /**
   * Every row of the user's (three years and more, no other criterion) under bounds on or next to
   * inserted amounts: the rows on either side of a bound decide the total.
   */
  const nearRowFilterArbitrary = () =>
    fc.record({
      fromDay: fc.constant(1_150),
      days: fc.constant(1_200),
      fromSecond: fc.constant(0),
      untilSecond: fc.constant(86_399),
      wallet: fc.constant(null),
      type: fc.constant(null),
      status: fc.constant(null),
      minAmount: fc.option(nearRow(), { freq: 3 }),
      maxAmount: fc.option(nearRow(), { freq: 3 }),
      page: fc.constant(1),
    });

  const filterArbitrary = () =>
    fc.record({
      fromDay: fc.oneof(
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 1_150 }),
      ),
      days: fc.oneof(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 1_150 }),
      ),
      // Partial days at either end (the search takes instants).
      fromSecond: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 86_399 })),
      untilSecond: fc.oneof(fc.constant(86_399), fc.integer({ min: 0, max: 86_399 })),
      wallet: fc.option(fc.integer({ min: 0, max: 100 }), { freq: 2 }),
      type: fc.option(fc.constantFrom(1, 2, 3), { freq: 2 }),
      status: fc.option(fc.constantFrom(1, 2, 3, 4), { freq: 2 }),
      // Bounds on bucket edges, next to them and anywhere (a lower bound above the upper one too),
      // and on or next to an inserted amount.
      minAmount: fc.option(boundArbitrary(), { freq: 4 }),
      maxAmount: fc.option(boundArbitrary(), { freq: 4 }),
      page: fc.integer({ min: 1, max: 3 }),
    });
  type Filter = ReturnType<typeof filterArbitrary> extends fc.Arbitrary<infer F> ? F : never;

  function walletOf(filter: Filter): Wallet | null {
    return filter.wallet === null ? null : (wallets[filter.wallet % wallets.length] ?? null);
  }

  /**
   * The amount a row is shown, bounded and totalled with: what it moved, 0 for a failed or
   * cancelled one (moved-amount-store.ts), whatever its stored amount.
   */
  const shown = (row: Row) => (row.status === 2 || row.status === 4 ? 0n : row.amount);

  /** The brute-force answer: every inserted row that is still there, filtered in JavaScript. */
  function expected(filter: Filter, from: Date, until: Date): Row[] {
    const mine = new Set(own());
    const wallet = walletOf(filter);
    return inserted
      .filter(
        (row) =>
          (mine.has(row.from ?? -1) || mine.has(row.to ?? -1)) &&
          row.at >= from &&
          row.at <= until &&
          (wallet === null || row.from === wallet.id || row.to === wallet.id) &&
          (filter.type === null || row.type === filter.type) &&
          (filter.status === null || row.status === filter.status) &&
          (filter.minAmount === null || shown(row) >= filter.minAmount) &&
          (filter.maxAmount === null || shown(row) <= filter.maxAmount),
      )
      .sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id);
  }

  const decimal = (minor: bigint | null) => (minor === null ? undefined : formatMinor(minor, 2));

  async function compareRest(filter: Filter): Promise<void> {
    const start = today - filter.fromDay * dayMs;
    const end = start + filter.days * dayMs;
    const found = expected(filter, new Date(start), new Date(end + dayMs - 1));
    const page = await listHistory(engine.deps, acme, {
      startDate: new Date(start).toISOString().slice(0, 10),
      endDate: new Date(end).toISOString().slice(0, 10),
      page: filter.page,
      itemsPerPage: 3,
      walletNumber: walletOf(filter)?.number,
      type: filter.type,
      status: filter.status,
      minAmount: decimal(filter.minAmount),
      maxAmount: decimal(filter.maxAmount),
    });
    expect(page.meta.total).toBe(found.length);
    expect(page.meta.lastPage).toBe(Math.max(1, Math.ceil(found.length / 3)));
    // Under amount bounds (counted up to the cap, which these few rows stay below) the meta also
    // says whether a page follows; the specification's meta alone otherwise.
    const bounded = filter.minAmount !== null || filter.maxAmount !== null;
    expect(page.meta.hasMore).toBe(bounded ? found.length > filter.page * 3 : undefined);
    expect(page.meta.totalExact).toBe(bounded ? true : undefined);
    expect(page.items.map((item) => item.id)).toEqual(
      found.slice((filter.page - 1) * 3, filter.page * 3).map((row) => row.id),
    );
  }

  async function compareSearch(filter: Filter): Promise<void> {
    const from = new Date(today - filter.fromDay * dayMs + filter.fromSecond * 1000);
    const until = new Date(from.getTime() + filter.days * dayMs + filter.untilSecond * 1000);
    const found = expected(filter, from, until);
    const search = {
      from: from.toISOString(),
      until: until.toISOString(),
      walletNumber: walletOf(filter)?.number ?? null,
      type: filter.type === null ? null : transactionTypeName(filter.type),
      status: filter.status === null ? null : transactionStatusName(filter.status),
      minAmount: decimal(filter.minAmount) ?? null,
      maxAmount: decimal(filter.maxAmount) ?? null,
    };
    const page = await searchTransactions(engine.deps, acme, search, { first: 4 });
    const perCurrency = new Map<number, { count: number; amount: bigint; commission: bigint }>();
    for (const row of found) {
      const total = perCurrency.get(row.currency) ?? { count: 0, amount: 0n, commission: 0n };
      perCurrency.set(row.currency, {
        count: total.count + 1,
        amount: total.amount + shown(row),
        commission: total.commission + row.commission,
      });
    }
    expect(page.totals.every((total) => total.exact)).toBe(true);
    expect(
      page.totals
        .map(({ currencyId, count, amount, commission }) => ({ currencyId, count, amount, commission }))
        .sort((a, b) => a.currencyId - b.currencyId),
    ).toEqual(
      [...perCurrency.entries()]
        .map(([currencyId, total]) => ({
          currencyId,
          count: total.count,
          amount: formatMinor(total.amount, 2),
          commission: formatMinor(total.commission, 2),
        }))
        .sort((a, b) => a.currencyId - b.currencyId),
    );
    expect(page.nodes.map((node) => node.id)).toEqual(found.slice(0, 4).map((row) => row.id));
    expect(page.hasNextPage).toBe(found.length > 4);
    const last = page.nodes.at(-1);
    if (page.hasNextPage && last) {
      // The cursor continues in (created_at, id) order where the first page stopped.
      const next = await searchTransactions(engine.deps, acme, search, { first: 4, afterId: last.id });
      expect(next.nodes.map((node) => node.id)).toEqual(found.slice(4, 8).map((row) => row.id));
    }
  }

  async function compareAll(seed: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(filterArbitrary(), async (filter) => {
        await compareRest(filter);
        await compareSearch(filter);
      }),
      { numRuns: 60, seed },
    );
    await fc.assert(
      fc.asyncProperty(nearRowFilterArbitrary(), async (filter) => {
        await compareRest(filter);
        await compareSearch(filter);
      }),
      { numRuns: 30, seed },
    );
  }

  it("equal a count of the rows for any filter, after inserts, status changes and deletions", async () => {
    await insert(300, 7);
    await compareAll(1);

    // Statuses move (a checkout paid, expired or cancelled, a payout settled): the counts move
    // with them, and a row that failed or was cancelled is then shown, bounded and totalled at 0.
    const changed = inserted.filter((_, index) => index % 5 === 0);
    changed.forEach((row, index) => {
      row.status = row.status === 1 ? ([3, 2, 4][index % 3] ?? 3) : 1;
    });
    const values = changed.map((row) => `(${row.id}, ${row.status})`).join(",");
    await engine.deps.db
      .em()
      .execute(
        `update transactions t set status = v.status from (values ${values}) as v(id, status) where t.id = v.id`,
      );
    const removed = new Set([...generatedIds].filter((id) => id % 7 === 0));
    await engine.deps.db.em().execute(`delete from transactions where id in (${[...removed].join(",")})`);
    inserted = inserted.filter((row) => !removed.has(row.id));
    await insert(100, 8);
    await compareAll(2);
  });

  it("an unknown cursor continues with nothing", async () => {
    const page = await searchTransactions(engine.deps, acme, {}, { first: 4, afterId: 999_999_999 });
    expect(page.nodes).toEqual([]);
    expect(page.hasNextPage).toBe(false);
  });

  it("audits each month against its days, and a tampered month is a breach", async () => {
    const breaches = async () =>
      (await auditLedger(engine.deps.db)).checks.find(
        (check) => check.name === "the history's monthly counts equal their days",
      )?.breaches;
    expect(await breaches()).toEqual([]);
    await engine.deps.db
      .em()
      .execute(
        "update history_month_counts set amount_minor = amount_minor + 1 where (wallet_id, month, type, status, internal) in (select wallet_id, month, type, status, internal from history_month_counts order by wallet_id, month limit 1)",
      );
    const found = await breaches();
    expect(found).toHaveLength(1);
    expect(found?.[0]).toMatch(
      /^wallet \S+ in the month of \d{4}-\d{2}-01, type \d, status \d.*: \d+ counted but its days count \d+/,
    );
  });

  it("is what the audit recounts, and a tampered count is a breach", async () => {
    const breaches = async () =>
      (await auditLedger(engine.deps.db)).checks.find(
        (check) => check.name === "the history's daily counts equal the transactions",
      )?.breaches;
    expect(await breaches()).toEqual([]);
    await engine.deps.db
      .em()
      .execute(
        "update history_counts set n = n + 1 where (wallet_id, day, type, status, internal) in (select wallet_id, day, type, status, internal from history_counts order by wallet_id, day limit 1)",
      );
    const found = await breaches();
    expect(found).toHaveLength(1);
    expect(found?.[0]).toMatch(
      /^wallet \S+ on \d{4}-\d{2}-\d{2}, type \d, status \d.*: (\d+) counted but (\d+) transactions/,
    );
  });
});

describe("history totals under concurrent movements", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine?.close());

  it("stay equal to the rows when transfers between the same wallets commit in parallel", async () => {
    const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };
    const moves = Array.from({ length: 24 }, (_, index) =>
      index % 2 === 0
        ? transferFunds(engine.deps, acme, {
            walletFrom: "U100000010",
            walletTo: "U100000020",
            amount: `1.${10 + index}`,
          })
        : transferFunds(engine.deps, bolt, {
            walletFrom: "U100000020",
            walletTo: "U100000010",
            amount: `1.${10 + index}`,
          }),
    );
    const settled = await Promise.allSettled(moves);
    expect(settled.filter((result) => result.status === "rejected")).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    const page = await listHistory(engine.deps, acme, {
      startDate: "2000-01-01",
      endDate: today,
      page: 1,
      itemsPerPage: 100,
    });
    const [counted] = await rows(
      engine.deps.db.em(),
      sql<{ n: string }>`select count(*) as n from transactions t
        where t.wallet_from_id in (select id from wallets where user_id = 1)
           or t.wallet_to_id in (select id from wallets where user_id = 1)`,
    );
    expect(page.meta.total).toBe(Number(counted?.n));
    expect(page.items).toHaveLength(Number(counted?.n));
    const report = await auditLedger(engine.deps.db);
    expect(report.checks.filter((check) => check.breaches.length > 0)).toEqual([]);
  });
});
