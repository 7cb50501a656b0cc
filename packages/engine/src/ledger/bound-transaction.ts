import { PurseError } from "../errors/index.ts";
import { isDistributed } from "../persistence/citus-routing.ts";
import { type SqlRunner, toId } from "../persistence/sql.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";
import {
  type WalletRecord,
  type WalletRow,
  type WalletVersionColumns,
  type WalletVersions,
  walletFromRow,
  walletVersionsFromRow,
} from "../wallet/wallet-store.ts";
import {
  type PriorKeys,
  setBounds,
  setBoundsAndFindPrior,
  setBoundsFindPriorsAndLockWallets,
  setBoundsFindPriorsAndLockWalletsOnCitus,
} from "./movement-store.ts";

export interface IdempotencyKeys {
  /** The user the keys belong to: keys are unique per user. */
  readonly userId: number;
  /** The client's own id for the operation (transfer `payment_id`), stored as `external_id`. */
  readonly externalId: string | null;
  /** The `Idempotency-Key` header. */
  readonly idempotencyKey: string | null;
  /** Identifies the request's content: same keys with another fingerprint is a different request. */
  readonly fingerprint: string;
  /**
   * "operator": the key belongs to operator verbs (credit, payout, reversal), unique across all
   * users (whose wallet the verb touched does not matter), matched only among operator movements.
   */
  readonly scope?: "user" | "operator";
}

/**
 * The first statement of every movement's transaction, in one round trip: bounds every lock wait
 * and statement of the transaction to `boundMs` (`SET LOCAL`, so the pooled connection forgets it
 * at COMMIT or ROLLBACK), and finds the transaction an earlier identical request created, so a
 * retry returns it instead of moving money twice. The same key with a different request is
 * refused: `Order id is not unique`.
 *
 * Looking the prior request up inside the transaction keeps its guarantee: under READ COMMITTED
 * each statement sees every commit made before it, exactly as a lookup before BEGIN would, and the
 * unique indexes still decide a race between two requests that both found nothing.
 */
export async function boundTransaction(
  tx: SqlRunner,
  boundMs: number,
  keys: IdempotencyKeys | null,
): Promise<number | null> {
  if (!keys || (keys.externalId === null && keys.idempotencyKey === null)) {
    await setBounds(tx, boundMs);
    return null;
  }
  const operator = keys.scope === "operator";
  const prior = await setBoundsAndFindPrior(tx, boundMs, {
    userId: keys.userId,
    externalId: keys.externalId,
    idempotencyKey: keys.idempotencyKey,
    operator,
  });
  return priorTransaction(prior?.id ?? null, prior?.request_hash ?? null, keys);
}

/** A prior request found for a movement's keys: its transaction id and fingerprint. */
export interface PriorRequestFound {
  readonly id: string;
  readonly requestHash: string | null;
}

/**
 * `boundTransaction` for movements that name their wallets up front (transfers, one or a batch:
 * ledger/movement-batch.ts): the same bounds, each movement's prior-request lookup, and in the same
 * statement the row locks of all their wallets in id order. The wallets come back by number (a
 * number no wallet has is absent); `priors[i]` is what `keys[i]` found (checked by `priorOf`).
 */
export async function boundTransactionLockingWallets(
  tx: SqlRunner,
  boundMs: number,
  keys: readonly (IdempotencyKeys | null)[],
  numbers: readonly string[],
): Promise<{
  priors: (PriorRequestFound | null)[];
  wallets: Map<string, WalletRecord>;
  /** The locked rows' versions by number, where the statement reads them (not on Citus). */
  versions: Map<string, WalletVersions>;
}> {
  if (keys.some((key) => key?.scope === "operator"))
    throw new Error("operator keys are looked up by boundTransaction");
  const lockWallets = isDistributed(tx)
    ? setBoundsFindPriorsAndLockWalletsOnCitus
    : setBoundsFindPriorsAndLockWallets;
  const found = await lockWallets(tx, boundMs, keys.map(priorKeysOf), numbers);
  const priors: (PriorRequestFound | null)[] = keys.map(() => null);
  for (const [n, id, requestHash] of found[0]?.priors ?? []) priors[n - 1] = { id, requestHash };
  const wallets = new Map<string, WalletRecord>();
  const versions = new Map<string, WalletVersions>();
  for (const row of found) {
    if (row.id === null) continue;
    wallets.set(row.number, walletFromRow(row as WalletRow));
    if (row.wallet_version && row.owner_version && row.currency_version)
      versions.set(row.number, walletVersionsFromRow(row as WalletVersionColumns));
  }
  return { priors, wallets, versions };
}

/** A movement's keys as the prior-request lookup takes them (none: a user no key can name). */
export function priorKeysOf(keys: IdempotencyKeys | null): Omit<PriorKeys, "operator"> {
  return {
    userId: keys?.userId ?? 0,
    externalId: keys?.externalId ?? null,
    idempotencyKey: keys?.idempotencyKey ?? null,
  };
}

/**
 * The transaction of a prior request `found` for `keys`, if it is this request's (the movement is
 * then answered again, nothing moves); the same keys on another request are refused.
 */
export function priorOf(found: PriorRequestFound | null, keys: IdempotencyKeys | null): number | null {
  if (!keys || !found) return null;
  return priorTransaction(found.id, found.requestHash, keys);
}

/**
 * What an API caller's Idempotency-Key books as its request (`idempotency_keys.request_hash`): the
 * request's content and its payment_id, since the key promises the whole request, while a
 * payment_id is itself the key of its own lookup. The same key with another payment_id is
 * another request. (Keys booked before this hash existed hold the bare fingerprint, still matched.)
 */
export function keyedRequestHash(fingerprint: string, externalId: string | null): string {
  return sha256Hex(JSON.stringify([fingerprint, externalId]));
}

/** The prior request's transaction, if it is this request's; the same keys on another request are refused. */
function priorTransaction(
  id: string | null,
  requestHash: string | null,
  keys: IdempotencyKeys,
): number | null {
  if (id === null) return null;
  const sameRequest =
    requestHash === keys.fingerprint ||
    (keys.idempotencyKey !== null &&
      keys.scope !== "operator" &&
      requestHash === keyedRequestHash(keys.fingerprint, keys.externalId));
  if (!sameRequest) {
    if (keys.scope === "operator") throw new PurseError("OPERATOR_KEY_REUSED", "key", { id });
    throw new PurseError("ORDER_ID_NOT_UNIQUE", "paymentId");
  }
  return toId(id);
}
