import type { SqlEntityManager } from "@mikro-orm/sql";
import { tallyMovement } from "../metrics/recorded-movements.ts";
import { firstRow, sql, toId } from "../persistence/sql.ts";
import { chainLinkSql, postingsArraySql, transactionHashSql } from "./ledger-hash.ts";
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
  /** Who ran an operator verb (credit, payout, reversal); null for the API's own movements. */
  readonly operator?: string | null;
  /** The transaction this one compensates (a reversal); at most one reversal per transaction. */
  readonly reversesTransactionId?: number | null;
  readonly legs: readonly Leg[];
}

export interface RecordedMovement {
  readonly id: number;
  readonly createdAt: Date;
}

/** The hash and chain links are computed in the same statement (ledger/ledger-hash.ts). */
const sealedHash = sql.raw(transactionHashSql("draft", postingsArraySql("leg p")));
const walletLink = sql.raw(chainLinkSql("head.chain_head", "tx.hash"));
const walletHead = sql.raw(chainLinkSql("w.chain_head", "tx.hash"));

/**
 * Writes a transaction, its postings and the wallet balance changes in ONE statement (one round
 * trip). The caller holds the wallet row locks and the database transaction; the balance check
 * constraint is the last line of defence against a balance below zero.
 *
 * The same statement seals the movement: the transaction's hash over its content and all its
 * postings, and for each wallet the next link of its chain, read from and written back to the
 * wallet row the caller has locked (so the chain costs no extra wait or round trip). An API
 * movement's Idempotency-Key is booked in the same statement; its primary key decides a race.
 */
export async function recordMovement(em: SqlEntityManager, movement: Movement): Promise<RecordedMovement> {
  assertBalanced(movement.legs);
  // A zero leg (no commission, say) records nothing; leaving it out keeps the ledger lean.
  const legs = movement.legs.filter((leg) => leg.amountMinor !== 0n);
  const deltas = walletDeltas(legs);
  // An API caller's Idempotency-Key goes to its own table, pruned after a window (migration 0008),
  // so it stays out of the hashed ledger row; an operator's key stays on the row it attributes.
  const ledgerKey = movement.operator ? (movement.idempotencyKey ?? null) : null;
  const apiKey = movement.operator ? null : (movement.idempotencyKey ?? null);
  const row = await firstRow(
    em,
    sql<{ id: string | number; created_at: Date | string }>`
      with leg as (
        select leg.account, leg.wallet_id, ${movement.currencyId}::integer as currency_id, leg.amount_minor
        from unnest(
          ${legs.map((leg) => leg.account)}::text[],
          ${legs.map((leg) => leg.walletId ?? null)}::bigint[],
          ${legs.map((leg) => leg.amountMinor.toString())}::bigint[]
        ) as leg(account, wallet_id, amount_minor)
      ), head as (
        select id, chain_head from wallets where id in (select wallet_id from leg)
      ), draft as (
        select nextval(pg_get_serial_sequence('transactions', 'id')) as id,
          ${movement.userId}::bigint as user_id, ${movement.type}::smallint as type,
          ${movement.status}::smallint as status, ${movement.label}::text as label,
          ${movement.walletFromId}::bigint as wallet_from_id, ${movement.walletToId}::bigint as wallet_to_id,
          ${movement.currencyId}::integer as currency_id, ${movement.amountMinor.toString()}::bigint as amount_minor,
          ${movement.commissionMinor.toString()}::bigint as commission_minor,
          ${movement.amountFromMinor.toString()}::bigint as amount_from_minor,
          ${movement.amountToMinor.toString()}::bigint as amount_to_minor,
          ${movement.externalId ?? null}::text as external_id,
          ${ledgerKey}::text as idempotency_key,
          ${movement.description ?? ""}::text as description, ${movement.additional ?? ""}::text as additional,
          ${movement.operator ?? null}::text as operator,
          ${movement.reversesTransactionId ?? null}::bigint as reverses_transaction_id,
          now() as created_at
      ), tx as (
        insert into transactions (
          id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional,
          operator, reverses_transaction_id, created_at, updated_at, hash)
        select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, ${movement.requestHash ?? null}, description, additional,
          operator, reverses_transaction_id, created_at, created_at, ${sealedHash}
        from draft
        returning id, created_at, hash
      ), posted as (
        insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at, chain_hash)
        select tx.id, leg.account, leg.wallet_id, leg.currency_id, leg.amount_minor, tx.created_at,
          case when leg.wallet_id is null then null else ${walletLink} end
        from tx cross join leg left join head on head.id = leg.wallet_id
      ), balances as (
        update wallets w
        set balance_minor = w.balance_minor + delta.amount_minor, chain_head = ${walletHead}, updated_at = now()
        from tx, unnest(
          ${deltas.map(([walletId]) => walletId)}::bigint[],
          ${deltas.map(([, amount]) => amount.toString())}::bigint[]
        ) as delta(wallet_id, amount_minor)
        where w.id = delta.wallet_id
      ), keyed as (
        insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
        select ${movement.userId}::bigint, ${apiKey}::text, tx.id, ${movement.requestHash ?? null}::text, tx.created_at
        from tx where ${apiKey}::text is not null
      )
      select id, created_at from tx`,
    "purse_record_movement",
  );
  if (!row) throw new Error("the transaction insert returned no row");
  tallyMovement(em, movement); // for metrics after COMMIT (metrics/recorded-movements.ts)
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
