import type { MovedFigures } from "./engine-metrics.ts";

/**
 * The movements recorded inside one database transaction, keyed by its EntityManager: the
 * pipeline opens a tally before `move` and reads it after COMMIT, so metrics learn currency and
 * amounts without one more query and without every use case repeating them.
 */
const tallies = new WeakMap<object, MovedFigures[]>();

export function openTally(em: object): MovedFigures[] {
  const tally: MovedFigures[] = [];
  tallies.set(em, tally);
  return tally;
}

/** Called by `recordMovement`; a no-op outside a tallied transaction (seeding, the CLI). */
export function tallyMovement(em: object, figures: MovedFigures): void {
  tallies.get(em)?.push(figures);
}
