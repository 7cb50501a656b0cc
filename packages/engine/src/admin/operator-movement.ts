import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import type { MovementChange } from "../ledger/run-movement.ts";
import { runMovement } from "../ledger/run-movement.ts";
import type { SqlRunner } from "../persistence/sql.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";

/** Who runs an operator verb, and the key that makes running it twice harmless. */
export interface OperatorRequest {
  /** Recorded on the transaction (`transactions.operator`): the `--operator` name or the OS user. */
  readonly operator: string;
  /** Unique across all operator movements: the same key with the same request replays it. */
  readonly key: string;
}

export interface OperatorMovementResult {
  readonly transactionId: number;
  /** True when the key had already moved this money: nothing moved this time. */
  readonly replayed: boolean;
}

const operatorName = /^[\w.@-]{1,64}$/;
const keyText = /^[\x21-\x7e]{1,200}$/;

/** Refuses an operator name or key the ledger would not take, before any work. */
export function checkOperatorRequest(who: OperatorRequest): void {
  if (!operatorName.test(who.operator)) throw new PurseError("INVALID_VALUE", "operator");
  if (!keyText.test(who.key)) throw new PurseError("INVALID_VALUE", "key");
}

/**
 * Runs an operator verb through the movement pipeline: route lock, one bounded transaction that
 * looks the key up first (a replay answers the first transaction), the move, COMMIT, announce.
 * `request` is what the key promises: the same key with another request is refused.
 */
export function runOperatorMovement(
  deps: EngineDependencies,
  verb: string,
  who: OperatorRequest,
  request: readonly (string | number | null)[],
  move: (tx: SqlRunner, fingerprint: string) => Promise<{ transactionId: number; change: MovementChange }>,
): Promise<OperatorMovementResult> {
  checkOperatorRequest(who);
  const fingerprint = sha256Hex(JSON.stringify([verb, ...request]));
  return runMovement<unknown, OperatorMovementResult>(deps, {
    operation: `operator-${verb}`,
    lock: { owner: "operator", fingerprint },
    idempotency: {
      keys: { userId: 0, externalId: null, idempotencyKey: who.key, fingerprint, scope: "operator" },
      replay: (transactionId) => ({ transactionId, replayed: true }),
    },
    async move(tx) {
      const { transactionId, change } = await move(tx, fingerprint);
      return { result: { transactionId, replayed: false }, change };
    },
  });
}
