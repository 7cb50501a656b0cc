import { firstRow, rows, type SqlRunner, sql, toBigInt, toId } from "../persistence/sql.ts";
import { findWalletOwner } from "../wallet/wallet-store.ts";

/** The wallet a statement is for, with its balance just before the period (`opening`). */
export interface StatementWallet {
  readonly id: number;
  readonly userId: number;
  readonly code: string;
  readonly precession: number;
  readonly openingMinor: bigint;
}

const dayMs = 86_400_000;

/**
 * The wallet and its balance at `from`, in O(days): the days before `from`'s UTC day from
 * `wallet_days` (migration 0011) with the deltas not folded into it yet (`wallet_day_deltas`,
 * migration 0020), plus the postings of the part of that day before `from`, or less those of the
 * part after it, whichever is the shorter half (through `postings_wallet_created_idx`).
 * It read every posting of the wallet before `from` until then: a scan of its whole history.
 *
 * The wallet's owner is read first from `wallet_numbers` (migration 0022), and every table is
 * then read by that owner as well as the wallet: on Citus (docs/sharding.md) the wallet, its
 * days and its postings are the owner's, so the statement runs on the owner's shard alone, where
 * reads by the wallet's id only were refused ("complex joins are only supported when all
 * distributed tables are co-located"). Plain PostgreSQL and PGlite read the same.
 */
export async function findStatementWallet(
  tx: SqlRunner,
  number: string,
  from: Date,
): Promise<StatementWallet | undefined> {
  const userId = await findWalletOwner(tx, number);
  if (userId === undefined) return undefined;
  const dayStart = Math.floor(from.getTime() / dayMs) * dayMs;
  const early = from.getTime() - dayStart <= dayMs / 2;
  const daysBefore = new Date(early ? dayStart : dayStart + dayMs).toISOString().slice(0, 10);
  const [partFrom, partUntil] = early ? [new Date(dayStart), from] : [from, new Date(dayStart + dayMs)];
  const wallet = await firstRow(
    tx,
    sql<{ id: string; code: string; precession: number; opening: string }>`
          select w.id, c.code, c.precession,
            ((select coalesce(sum(d.net_minor), 0) from (
                select net_minor from wallet_days
                where wallet_id = w.id and user_id = ${userId} and day < ${daysBefore}::date
                union all select net_minor from wallet_day_deltas
                where wallet_id = w.id and user_id = ${userId} and day < ${daysBefore}::date) as d)
             + ${early ? 1 : -1}::integer * (select coalesce(sum(p.amount_minor), 0) from postings p
              where p.wallet_id = w.id and p.user_id = ${userId}
                and p.created_at >= ${partFrom} and p.created_at < ${partUntil}))::text as opening
          from wallets w join currencies c on c.id = w.currency_id
          where w.number = ${number} and w.user_id = ${userId}`,
  );
  if (!wallet) return undefined;
  return {
    id: toId(wallet.id),
    userId,
    code: wallet.code,
    precession: Number(wallet.precession),
    openingMinor: toBigInt(wallet.opening),
  };
}

/** One transaction as a wallet's statement shows it: the wallet's change and the fee. */
export interface StatementLineRow {
  readonly transactionId: number;
  readonly createdAt: Date | string;
  readonly type: number;
  readonly status: number;
  readonly label: string;
  readonly description: string;
  readonly operator: string | null;
  readonly reversesTransactionId: number | null;
  readonly amountMinor: bigint;
  readonly feeMinor: bigint;
}

interface LineRow {
  id: string;
  created_at: Date | string;
  type: number;
  status: number;
  label: string;
  description: string;
  operator: string | null;
  reverses_transaction_id: string | null;
  amount: string;
  fee: string;
}

/**
 * The wallet's transactions with from ≤ created_at < to, oldest first. The wallet's postings are
 * its owner's (`userId`); a transaction and its fee postings are its acting user's, another owner
 * for a payment the wallet received: the wallet's side is read first (one shard on Citus), then
 * the transactions it names, each with its fee postings joined on the transaction's owner too.
 */
export async function findStatementLines(
  tx: SqlRunner,
  wallet: { id: number; userId: number },
  from: Date,
  to: Date,
): Promise<StatementLineRow[]> {
  const found = await rows(
    tx,
    sql<LineRow>`
          with side as materialized (
            select transaction_id, sum(amount_minor) as amount from postings
            where wallet_id = ${wallet.id} and user_id = ${wallet.userId}
              and created_at >= ${from} and created_at < ${to}
            group by transaction_id)
          select t.id, t.created_at, t.type, t.status, t.label, t.description, t.operator,
            t.reverses_transaction_id, min(side.amount)::text as amount,
            coalesce(sum(p.amount_minor), 0)::text as fee
          from transactions t join side on side.transaction_id = t.id
          left join postings p on p.transaction_id = t.id and p.user_id = t.user_id and p.account = 'fee'
          group by t.id, t.user_id order by t.created_at, t.id`,
  );
  return found.map((row) => ({
    transactionId: toId(row.id),
    createdAt: row.created_at,
    type: Number(row.type),
    status: Number(row.status),
    label: row.label,
    description: row.description,
    operator: row.operator,
    reversesTransactionId: row.reverses_transaction_id === null ? null : toId(row.reverses_transaction_id),
    amountMinor: toBigInt(row.amount),
    feeMinor: toBigInt(row.fee),
  }));
}
