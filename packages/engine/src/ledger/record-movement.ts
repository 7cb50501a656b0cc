import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import type { TransactionStatusCode, TransactionTypeCode } from "./transaction-codes.ts";

export type LedgerAccount = "wallet" | "fee" | "equity" | "voucher";

/** One side of a double entry: positive credits the account, negative debits it. */
export interface Leg {
  readonly account: LedgerAccount;
  /** Set exactly when `account` is "wallet". */
  readonly walletId?: number;
  readonly amountMinor: bigint;
}

export interface Movement {
  readonly userId: number;
  readonly type: TransactionTypeCode;
  readonly status: TransactionStatusCode;
  readonly label: string;
  readonly walletFromId: number | null;
  readonly walletToId: number | null;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
  readonly amountFromMinor: bigint;
  readonly amountToMinor: bigint;
  readonly externalId?: string | null;
  readonly idempotencyKey?: string | null;
  readonly requestHash?: string | null;
  readonly description?: string;
  readonly additional?: string;
  readonly legs: readonly Leg[];
}

export interface RecordedMovement {
  readonly id: number;
  readonly createdAt: Date;
}

/**
 * Writes a transaction, its postings and the wallet balance changes in ONE statement (one round
 * trip). The caller holds the wallet row locks and the database transaction; the balance check
 * constraint is the last line of defence against a balance below zero.
 */
export async function recordMovement(em: SqlEntityManager, movement: Movement): Promise<RecordedMovement> {
  assertBalanced(movement.legs);
  // A zero leg (no commission, say) records nothing; leaving it out keeps the ledger lean.
  const legs = movement.legs.filter((leg) => leg.amountMinor !== 0n);
  const deltas = walletDeltas(legs);
  const row = await firstRow(
    em,
    sql<{ id: string | number; created_at: Date | string }>`
      with tx as (
        insert into transactions (
          user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional)
        values (
          ${movement.userId}, ${movement.type}, ${movement.status}, ${movement.label},
          ${movement.walletFromId}, ${movement.walletToId}, ${movement.currencyId},
          ${movement.amountMinor.toString()}, ${movement.commissionMinor.toString()},
          ${movement.amountFromMinor.toString()}, ${movement.amountToMinor.toString()},
          ${movement.externalId ?? null}, ${movement.idempotencyKey ?? null}, ${movement.requestHash ?? null},
          ${movement.description ?? ""}, ${movement.additional ?? ""})
        returning id, created_at
      ), legs as (
        insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at)
        select tx.id, leg.account, leg.wallet_id, ${movement.currencyId}, leg.amount_minor, tx.created_at
        from tx, unnest(
          ${legs.map((leg) => leg.account)}::text[],
          ${legs.map((leg) => leg.walletId ?? null)}::bigint[],
          ${legs.map((leg) => leg.amountMinor.toString())}::bigint[]
        ) as leg(account, wallet_id, amount_minor)
      ), balances as (
        update wallets w
        set balance_minor = w.balance_minor + delta.amount_minor, updated_at = now()
        from unnest(
          ${deltas.map(([walletId]) => walletId)}::bigint[],
          ${deltas.map(([, amount]) => amount.toString())}::bigint[]
        ) as delta(wallet_id, amount_minor)
        where w.id = delta.wallet_id
      )
      select id, created_at from tx`,
  );
  if (!row) throw new Error("the transaction insert returned no row");
  return { id: toId(row.id), createdAt: new Date(row.created_at) };
}

function assertBalanced(legs: readonly Leg[]): void {
  const sum = legs.reduce((total, leg) => total + leg.amountMinor, 0n);
  if (sum !== 0n) throw new Error(`unbalanced movement: legs sum to ${sum}`);
  for (const leg of legs) {
    if ((leg.account === "wallet") !== (leg.walletId !== undefined)) {
      throw new Error(
        `a ${leg.account} leg ${leg.walletId === undefined ? "needs" : "cannot have"} a wallet`,
      );
    }
  }
}

function walletDeltas(legs: readonly Leg[]): [number, bigint][] {
  const deltas = new Map<number, bigint>();
  for (const leg of legs) {
    if (leg.walletId !== undefined)
      deltas.set(leg.walletId, (deltas.get(leg.walletId) ?? 0n) + leg.amountMinor);
  }
  return [...deltas.entries()];
}
