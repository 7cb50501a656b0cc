import type { Database } from "../persistence/database.ts";
import { foldBatch, foldingSchemas } from "./counter-fold-store.ts";

/** Deltas of each kind per fold transaction: a backlog is folded in short transactions. */
const batchSize = 20_000;

/**
 * Folds the counters' deltas (migration 0020) into the history's day and month counts and the
 * wallets' daily nets, batch after batch until a batch comes back short, in every schema that has
 * them; returns how many deltas it folded (per batch, the count of the kind with more). Readers
 * are exact whether or not this runs (they add the unfolded deltas); folding keeps what they add
 * small. Safe in any number of processes at once: one folder per schema at a time, the others
 * skip the round (`fold_counters`' advisory lock).
 */
export async function foldCounters(db: Database): Promise<number> {
  let total = 0;
  for (const schema of await foldingSchemas(db.queries())) {
    for (;;) {
      const folded = await foldBatch(db.queries(), schema, batchSize);
      total += folded;
      if (folded < batchSize) break;
    }
  }
  return total;
}
