import type { SqlEntityManager } from "@mikro-orm/sql";
import { PurseError } from "../errors/index.ts";
import { toId } from "../persistence/sql.ts";
import { setBounds, setBoundsAndFindPrior } from "./movement-store.ts";

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
  em: SqlEntityManager,
  boundMs: number,
  keys: IdempotencyKeys | null,
): Promise<number | null> {
  const bound = String(Math.max(1, Math.floor(boundMs)));
  if (!keys || (keys.externalId === null && keys.idempotencyKey === null)) {
    await setBounds(em, bound);
    return null;
  }
  const operator = keys.scope === "operator";
  const prior = await setBoundsAndFindPrior(em, bound, {
    userId: keys.userId,
    externalId: keys.externalId,
    idempotencyKey: keys.idempotencyKey,
    operator,
  });
  if (!prior || prior.id === null) return null;
  if (prior.request_hash !== keys.fingerprint) {
    if (operator) throw new PurseError("OPERATOR_KEY_REUSED", "key", { id: prior.id });
    throw new PurseError("ORDER_ID_NOT_UNIQUE", "payment_id");
  }
  return toId(prior.id);
}
