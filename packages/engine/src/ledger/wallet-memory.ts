import type { Database } from "../persistence/database.ts";
import type { WalletRecord, WalletVersions } from "../wallet/wallet-store.ts";

/**
 * How long a wallet is remembered after the process last locked it. Short enough that a version
 * (a 32-bit `xmin`) cannot come round again meanwhile, long enough for a busy wallet to be moved
 * on many times.
 */
const rememberMs = 30_000;

/**
 * How long a wallet another process (or another path of this one) changed under a foreseen batch
 * is left out of foreseen batches, the first time: a wallet that several processes move money on
 * misses more often than it hits, and each miss costs its batch a statement and an empty COMMIT.
 * Found changed again within twice its last pause, it is left out twice as long, up to `maxSharedMs`.
 */
const sharedMs = 5_000;
const maxSharedMs = 300_000;

/**
 * When more than this share of the recent foreseen batches (an average weighing the last ten or so)
 * were held back by a wallet changed elsewhere, the process stops foreseeing for a pause: its
 * wallets are moved on by other processes too (a load balancer spreading one merchant's calls),
 * and a batch foreseen there costs a statement more than it saves. The pause starts at 10 s and
 * doubles, up to `maxSharedMs`, each time it is needed again within twice the last one.
 */
const heldBackShareLimit = 0.3;
const pauseMs = 10_000;

/** Wallets remembered at most: about half a kilobyte each. */
const capacity = 10_000;

/** A wallet as this process last left it, with the versions of the rows it was read from. */
export interface RememberedWallet {
  readonly record: WalletRecord;
  readonly versions: WalletVersions;
}

interface Entry extends RememberedWallet {
  readonly until: number;
}

/**
 * The wallets a process's transfers last locked, as their transactions committed them: balance,
 * owner and currency policy, with the row versions they were read from
 * (wallet/wallet-store.ts, `WalletVersions`). A batch whose every wallet is remembered is decided
 * on them before its transaction starts, and sends the locks, a guard that every row is still that
 * version and the ledger write in one statement with its COMMIT (ledger/movement-batch.ts): one
 * round trip instead of two. Remembering is never trusted: the guard is checked under the row
 * locks, and a batch whose guard fails wrote nothing and runs as before.
 */
export class WalletMemory {
  readonly #wallets = new Map<string, Entry>();
  /** Wallets left out of foreseen batches until `until`, for a pause of `pauseMs`. */
  readonly #shared = new Map<string, { until: number; pauseMs: number }>();
  #heldBackShare = 0;
  #pause = { until: 0, pauseMs: 0 };
  /** How the process's batches ran (docs/operations.md, `purse_movement_batches_total`). */
  readonly batches: Record<BatchPath, number> = { one_round_trip: 0, held_back: 0, two_round_trips: 0 };

  /** Every one of `numbers`, remembered and not shared; or null if any is not. */
  recall(numbers: readonly string[], now = Date.now()): Map<string, RememberedWallet> | null {
    if (now < this.#pause.until) return null;
    const found = new Map<string, RememberedWallet>();
    for (const number of numbers) {
      const entry = this.#wallets.get(number);
      if (!entry || entry.until <= now || (this.#shared.get(number)?.until ?? 0) > now) return null;
      found.set(number, entry);
    }
    return found;
  }

  /** `wallet` as a committed transaction left it, its rows at `versions`. */
  remember(wallet: RememberedWallet, now = Date.now()): void {
    const number = wallet.record.number;
    this.#wallets.delete(number); // the newest last: the oldest goes first when full
    this.#wallets.set(number, { ...wallet, until: now + rememberMs });
    if (this.#wallets.size > capacity) {
      const oldest = this.#wallets.keys().next().value;
      if (oldest !== undefined) this.#wallets.delete(oldest);
    }
  }

  /** How a foreseen batch ended: written, or held back by a wallet changed elsewhere. */
  foreseen(heldBack: boolean, now = Date.now()): void {
    this.#heldBackShare = this.#heldBackShare * 0.9 + (heldBack ? 0.1 : 0);
    if (this.#heldBackShare <= heldBackShareLimit) return;
    this.#heldBackShare = 0;
    const last = this.#pause;
    const again = now < last.until + last.pauseMs;
    const next = again ? Math.min(last.pauseMs * 2, maxSharedMs) : pauseMs;
    this.#pause = { until: now + next, pauseMs: next };
  }

  /** Wallets whose state this process no longer knows (its transaction failed). */
  forget(numbers: Iterable<string>): void {
    for (const number of numbers) this.#wallets.delete(number);
  }

  /** Wallets found changed under a foreseen batch: forgotten, and left out for a while. */
  markShared(numbers: Iterable<string>, now = Date.now()): void {
    for (const number of numbers) {
      this.#wallets.delete(number);
      const last = this.#shared.get(number);
      const again = last !== undefined && now < last.until + last.pauseMs;
      const pauseMs = again ? Math.min(last.pauseMs * 2, maxSharedMs) : sharedMs;
      this.#shared.set(number, { until: now + pauseMs, pauseMs });
    }
    if (this.#shared.size > capacity)
      for (const [number, { until, pauseMs }] of this.#shared)
        if (until + pauseMs <= now) this.#shared.delete(number);
  }
}

/**
 * How a batch ran: decided on remembered wallets in one round trip; sent so and held back by its
 * guard (then run again in two); in two round trips, its wallets read first.
 */
export type BatchPath = "one_round_trip" | "held_back" | "two_round_trips";

/** How the batches of the movements on `db` ran so far, by path. */
export function movementBatchCounts(db: Database): Readonly<Record<BatchPath, number>> {
  return walletMemoryOf(db).batches;
}

/** Each database handle's memory, beside its movement queue (ledger/movement-queue.ts). */
const memories = new WeakMap<Database, WalletMemory>();

export function walletMemoryOf(db: Database): WalletMemory {
  let memory = memories.get(db);
  if (!memory) {
    memory = new WalletMemory();
    memories.set(db, memory);
  }
  return memory;
}
