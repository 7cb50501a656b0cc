import { defineEntity, p } from "@mikro-orm/core";
import { createdAtColumn } from "./timestamp-columns.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";

/**
 * An `Idempotency-Key` a user sent with a movement, and the transaction it produced (migration
 * 0008); pruned after PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS, after which the key may be reused.
 */
export const IdempotencyKeyEntity = defineEntity({
  name: "IdempotencyKey",
  tableName: "idempotency_keys",
  indexes: [{ name: "idempotency_keys_created_at_idx", properties: ["createdAt"] }],
  properties: {
    user: () => p.manyToOne(UserEntity).primary().foreignKeyName("idempotency_keys_user_id_fkey"),
    key: p.text().primary(),
    transaction: () => p.manyToOne(TransactionEntity).foreignKeyName("idempotency_keys_transaction_id_fkey"),
    requestHash: p.text().nullable(),
    createdAt: createdAtColumn(),
  },
});
