import type { Database, EngineMetrics, MovedFigures } from "@purse/engine";
import { movementBatchCounts, refusalReason } from "@purse/engine";
import { Counter, type Registry } from "prom-client";
import { withinMs } from "./share-sample.ts";

interface Totals {
  count: number;
  amountMinor: bigint;
  feeMinor: bigint;
}

/**
 * The engine's metrics port as Prometheus counters: movements, money moved and fees per
 * operation and currency, refusals per operation, reason and catalogue code.
 *
 * Money is summed exactly (bigint minor units) and handed to Prometheus as a float64 only when
 * scraped: exact while a series stays below 2^53 minor units (90 trillion dollars in cents).
 * These counters are for watching, never for accounting: the ledger is the record.
 */
export function movementCounters(registry: Registry, db: Database): EngineMetrics {
  const totals = new Map<string, Totals & { operation: string; currencyId: number }>();
  const currencyCodes = currencyCodeLookup(db);
  const labelled = async () => {
    const codes = await currencyCodes([...totals.values()].map((total) => total.currencyId));
    return [...totals.values()].map((total) => ({
      labels: {
        operation: total.operation,
        currency: codes.get(total.currencyId) ?? `id:${total.currencyId}`,
      },
      total,
    }));
  };
  const labelNames = ["operation", "currency"] as const;
  new Counter({
    name: "purse_movements_total",
    help: "Money movements committed (replays excluded), by operation and currency",
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { labels, total } of await labelled()) this.inc(labels, total.count);
    },
  });
  new Counter({
    name: "purse_money_moved_minor_total",
    help: "Amount moved in minor units (cents), by operation and currency; exact below 2^53, not for accounting",
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { labels, total } of await labelled()) this.inc(labels, Number(total.amountMinor));
    },
  });
  new Counter({
    name: "purse_fees_minor_total",
    help: "Commission charged in minor units, by operation and currency; exact below 2^53, not for accounting",
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { labels, total } of await labelled()) this.inc(labels, Number(total.feeMinor));
    },
  });
  new Counter({
    name: "purse_movement_batches_total",
    help: "Transactions of transfers (group commit), by path: one_round_trip (decided on remembered wallets), held_back (sent so, then run again), two_round_trips",
    labelNames: ["path"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [path, count] of Object.entries(movementBatchCounts(db))) this.inc({ path }, count);
    },
  });
  const refusals = new Counter({
    name: "purse_movement_refusals_total",
    help: "Money movements refused, by operation, reason (limits, funds, locks, busy, rate_limit...) and error code",
    labelNames: ["operation", "reason", "code"] as const,
    registers: [registry],
  });
  return {
    movementCommitted(operation: string, moved: readonly MovedFigures[]) {
      for (const figures of moved) {
        const key = `${operation}\u0000${figures.currencyId}`;
        const total = totals.get(key) ?? {
          operation,
          currencyId: figures.currencyId,
          count: 0,
          amountMinor: 0n,
          feeMinor: 0n,
        };
        total.count += 1;
        total.amountMinor += figures.amountMinor;
        total.feeMinor += figures.commissionMinor;
        totals.set(key, total);
      }
    },
    movementRefused(operation, code) {
      refusals.inc({ operation, reason: refusalReason(code), code });
    },
  };
}

/** Currency codes by id, read once and again only when an unknown id shows up. */
function currencyCodeLookup(db: Database): (ids: readonly number[]) => Promise<Map<number, string>> {
  let codes = new Map<number, string>();
  return async (ids) => {
    if (ids.every((id) => codes.has(id))) return codes;
    try {
      const found = await withinMs(
        2_000,
        db.em().execute<{ id: number; code: string }[]>("select id, code from currencies"),
      );
      codes = new Map(found.map((row) => [Number(row.id), row.code]));
    } catch {
      // The database is away: the series keep their `id:N` label until it answers again.
    }
    return codes;
  };
}
