import type { ErrorCode } from "../errors/index.ts";

/** What one committed movement moved, as `recordMovement` wrote it (exact minor units). */
export interface MovedFigures {
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
}

/**
 * What the engine tells an operator's metrics about money movements. The server implements it
 * with Prometheus counters; the engine never imports a metrics library. Calls happen after the
 * outcome is final (after COMMIT, or once a refusal is thrown) and must never throw.
 */
export interface EngineMetrics {
  /** A movement committed; a replayed request moved nothing and is not reported. */
  movementCommitted(operation: string, moved: readonly MovedFigures[]): void;
  /** A movement was refused with a catalogue code, or failed unexpectedly (`INTERNAL`). */
  movementRefused(operation: string, code: ErrorCode | "INTERNAL"): void;
}

/** The default when nothing watches: the CLI, tests, the embedded demo without /metrics. */
export const noEngineMetrics: EngineMetrics = {
  movementCommitted() {},
  movementRefused() {},
};
