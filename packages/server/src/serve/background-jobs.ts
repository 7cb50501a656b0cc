import {
  closeExpiredVouchers,
  type EngineDependencies,
  failAllExpiredCheckouts,
  foldCounters,
  pruneTables,
  sweepTestClocks,
} from "@purse/engine";
import type { FastifyBaseLogger } from "fastify";
import type { Runtime } from "../composition/runtime.ts";

/** How often each job runs in every `purse serve`; all of them are safe to run in many processes. */
export const jobIntervalsMs = {
  /** Expired vouchers are closed (status 2). */
  voucherSweep: 60_000,
  /** Checkouts expired unpaid become FAIL and their merchant is notified (SKIP LOCKED, once each). */
  checkoutSweep: 5_000,
  /** Dead tokens, old delivered webhook attempts and spent Idempotency-Keys are deleted (PURSE_PRUNE_*). */
  prune: 3_600_000,
  /**
   * The movements' counter deltas are folded into the history's counts and the wallets' daily nets
   * (migration 0020; one folder at a time across processes). Reads are exact either way; folding
   * often keeps the deltas they add to a second's worth.
   */
  counterFold: 1_000,
};

/**
 * Starts the periodic jobs beside the HTTP server; returns their stop. A failing round is logged
 * and the next one tries again; a round never overlaps the previous one of the same job.
 */
export function startBackgroundJobs(runtime: Runtime, log: FastifyBaseLogger): () => Promise<void> {
  const test = runtime.deps.testMode;
  // Each sweep runs over both modes' data; test mode's also on every moved test clock.
  const bothModes = async (work: (deps: EngineDependencies) => Promise<unknown>) => {
    await work(runtime.deps);
    if (test) await work(test);
  };
  const jobs = [
    // Also at start: the deltas left by a process that stopped are folded without waiting. One
    // fold reaches every schema with counters, test mode's included (ledger/fold-counters.ts).
    every(jobIntervalsMs.counterFold, () => foldCounters(runtime.db), log, "counter fold", { atStart: true }),
    every(
      jobIntervalsMs.voucherSweep,
      () => bothModes((deps) => closeExpiredVouchers(deps.db, deps.now())),
      log,
      "voucher sweep",
    ),
    every(
      jobIntervalsMs.checkoutSweep,
      () =>
        bothModes(async (deps) => {
          await failAllExpiredCheckouts(deps);
          if (deps === test) await sweepTestClocks(deps);
        }),
      log,
      "checkout expiry sweep",
    ),
    // Also once at start: a process restarted more often than hourly would otherwise never prune.
    every(
      jobIntervalsMs.prune,
      () => bothModes((deps) => pruneTables(deps.db, runtime.config.retention)),
      log,
      "table pruning",
      { atStart: true },
    ),
  ];
  return async () => {
    await Promise.all(jobs.map((stop) => stop()));
  };
}

function every(
  intervalMs: number,
  work: () => Promise<unknown>,
  log: FastifyBaseLogger,
  name: string,
  options: { atStart?: boolean } = {},
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const round = () => {
    running = running.then(() =>
      stopped ? undefined : work().catch((error: unknown) => log.error({ err: error }, `${name} failed`)),
    );
  };
  if (options.atStart) round();
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
