import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql, toBigInt, toId } from "../persistence/sql.ts";

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
 * `wallet_days` (migration 0011) with the deltas not folded into it yet (`wallet_days_exact`,
 * migration 0020), plus the postings of the part of that day before `from`, or less those of the
 * part after it, whichever is the shorter half (through `postings_wallet_created_idx`).
 * It read every posting of the wallet before `from` until then: a scan of its whole history.
 */
export async function findStatementWallet(
  em: SqlEntityManager,
  number: string,
  from: Date,
): Promise<StatementWallet | undefined> {
  const dayStart = Math.floor(from.getTime() / dayMs) * dayMs;
  const early = from.getTime() - dayStart <= dayMs / 2;
  const daysBefore = new Date(early ? dayStart : dayStart + dayMs).toISOString().slice(0, 10);
  const [partFrom, partUntil] = early ? [new Date(dayStart), from] : [from, new Date(dayStart + dayMs)];
  const wallet = await firstRow(
    em,
    sql<{ id: string; user_id: string; code: string; precession: number; opening: string }>`
          select w.id, w.user_id, c.code, c.precession,
            ((select coalesce(sum(d.net_minor), 0) from wallet_days_exact d
              where d.wallet_id = w.id and d.day < ${daysBefore}::date)
             + ${early ? 1 : -1}::integer * (select coalesce(sum(p.amount_minor), 0) from postings p
              where p.wallet_id = w.id and p.created_at >= ${partFrom} and p.created_at < ${partUntil}))::text as opening
          from wallets w join currencies c on c.id = w.currency_id where w.number = ${number}`,
  );
  if (!wallet) return undefined;
  return {
    id: toId(wallet.id),
    userId: toId(wallet.user_id),
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

/** The wallet's transactions with from ≤ created_at < to, oldest first. */
export async function findStatementLines(
  em: SqlEntityManager,
  walletId: number,
  from: Date,
  to: Date,
): Promise<StatementLineRow[]> {
  const found = await rows(
    em,
    sql<LineRow>`
          select t.id, t.created_at, t.type, t.status, t.label, t.description, t.operator,
            t.reverses_transaction_id,
            coalesce(sum(p.amount_minor) filter (where p.wallet_id = ${walletId}), 0)::text as amount,
            coalesce(sum(p.amount_minor) filter (where p.account = 'fee'), 0)::text as fee
          from transactions t join postings p on p.transaction_id = t.id
          where t.id in (select transaction_id from postings
                         where wallet_id = ${walletId} and created_at >= ${from} and created_at < ${to})
          group by t.id order by t.created_at, t.id`,
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
