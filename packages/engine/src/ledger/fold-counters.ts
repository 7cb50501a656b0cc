import type { Database } from "../persistence/database.ts";
import { foldBatch, foldingSchemas, foldOwner, ownersWithDeltas } from "./counter-fold-store.ts";

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
  if (await db.distributed()) return foldPerOwner(db);
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

/** Owners folded per round on Citus: each its own statement, on its own shard. */
const ownersPerRound = 1_000;

/**
 * The fold on Citus (persistence/citus-routing.ts): owner by owner (counter-fold-store.ts,
 * `foldOwner`), up to `ownersPerRound` owners per schema per round; returns how many deltas it
 * folded (per owner, the count of the kind with more).
 */
async function foldPerOwner(db: Database): Promise<number> {
  let total = 0;
  for (const schema of await foldingSchemas(db.queries())) {
    for (const owner of await ownersWithDeltas(db.queries(), schema, ownersPerRound)) {
      total += await foldOwner(db.queries(), schema, owner);
    }
  }
  return total;
}
