import type { SqlEntityManager } from "@mikro-orm/sql";
import { PurseError } from "../errors/index.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";

export interface IdempotencyKeys {
  /** The client's own id for the operation (transfer `payment_id`), stored as `external_id`. */
  readonly externalId: string | null;
  /** The `Idempotency-Key` header. */
  readonly idempotencyKey: string | null;
  readonly fingerprint: string;
}

/**
 * The transaction an earlier identical request created, so a retry returns it instead of moving
 * money twice. The same key with a different request is refused: `Order id is not unique`.
 */
export async function findPriorRequest(
  em: SqlEntityManager,
  userId: number,
  keys: IdempotencyKeys,
): Promise<number | null> {
  if (keys.externalId === null && keys.idempotencyKey === null) return null;
  const prior = await firstRow(
    em,
    sql<{ id: string; request_hash: string | null }>`
      select id, request_hash from transactions
      where user_id = ${userId}
        and (external_id = ${keys.externalId} or idempotency_key = ${keys.idempotencyKey})
      order by id limit 1`,
  );
  if (!prior) return null;
  if (prior.request_hash !== keys.fingerprint) throw new PurseError("ORDER_ID_NOT_UNIQUE", "payment_id");
  return toId(prior.id);
}
