import { PurseError } from "../errors/index.ts";
import { transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, rows, sql, toBigInt, toId } from "../persistence/sql.ts";

export interface StatementLine {
  readonly transactionId: number;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly at: string;
  readonly type: number;
  readonly typeName: string;
  readonly status: number;
  readonly label: string;
  readonly description: string;
  /** The wallet's change: positive credits it, negative debits it (commission paid included). */
  readonly amount: string;
  /** The transaction's fee postings (the commission the service earned on it), or "0". */
  readonly fee: string;
  readonly balanceAfter: string;
  readonly operator: string | null;
  readonly reversesTransactionId: number | null;
}

export interface WalletStatement {
  readonly wallet: string;
  readonly currency: string;
  /** The period, half-open: from ≤ created_at < to. */
  readonly from: string;
  readonly to: string;
  readonly openingBalance: string;
  readonly closingBalance: string;
  readonly totalIn: string;
  readonly totalOut: string;
  readonly lines: readonly StatementLine[];
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
 * A wallet's statement for a period, read in one repeatable-read snapshot so it reconciles by
 * construction: opening balance (its postings before `from`) + each movement = closing balance
 * (its postings before `to`), which for a period ending now is the wallet's balance. `ownerId`
 * restricts it to the wallet's owner (another user's wallet is NOT_FOUND); operators pass none.
 */
export async function walletStatement(
  db: Database,
  query: { number: string; from: Date; to: Date; ownerId?: number },
): Promise<WalletStatement> {
  if (!(query.from.getTime() < query.to.getTime())) throw new PurseError("INVALID_DATE", "to");
  return db.em().transactional(
    async (em) => {
      const wallet = await firstRow(
        em,
        sql<{ id: string; user_id: string; code: string; precession: number; opening: string }>`
          select w.id, w.user_id, c.code, c.precession,
            (select coalesce(sum(amount_minor), 0)::text from postings
             where wallet_id = w.id and created_at < ${query.from}) as opening
          from wallets w join currencies c on c.id = w.currency_id where w.number = ${query.number}`,
      );
      if (!wallet || (query.ownerId !== undefined && toId(wallet.user_id) !== query.ownerId)) {
        throw new PurseError("NOT_FOUND");
      }
      const walletId = toId(wallet.id);
      const found = await rows(
        em,
        sql<LineRow>`
          select t.id, t.created_at, t.type, t.status, t.label, t.description, t.operator,
            t.reverses_transaction_id,
            coalesce(sum(p.amount_minor) filter (where p.wallet_id = ${walletId}), 0)::text as amount,
            coalesce(sum(p.amount_minor) filter (where p.account = 'fee'), 0)::text as fee
          from transactions t join postings p on p.transaction_id = t.id
          where t.id in (select transaction_id from postings
                         where wallet_id = ${walletId} and created_at >= ${query.from} and created_at < ${query.to})
          group by t.id order by t.created_at, t.id`,
      );
      const precession = Number(wallet.precession);
      const money = (minor: bigint) => formatMinor(minor, precession);
      const opening = toBigInt(wallet.opening);
      let running = opening;
      let totalIn = 0n;
      let totalOut = 0n;
      const lines = found.map((row): StatementLine => {
        const amount = toBigInt(row.amount);
        running += amount;
        if (amount > 0n) totalIn += amount;
        else totalOut -= amount;
        return {
          transactionId: toId(row.id),
          at: formatTimestamp(row.created_at),
          type: Number(row.type),
          typeName: transactionTypeName(Number(row.type)),
          status: Number(row.status),
          label: row.label,
          description: row.description,
          amount: money(amount),
          fee: money(toBigInt(row.fee)),
          balanceAfter: money(running),
          operator: row.operator,
          reversesTransactionId:
            row.reverses_transaction_id === null ? null : toId(row.reverses_transaction_id),
        };
      });
      return {
        wallet: query.number,
        currency: wallet.code,
        from: formatTimestamp(query.from),
        to: formatTimestamp(query.to),
        openingBalance: money(opening),
        closingBalance: money(running),
        totalIn: money(totalIn),
        totalOut: money(totalOut),
        lines,
      };
    },
    { isolationLevel: "repeatable read", readOnly: true },
  );
}
