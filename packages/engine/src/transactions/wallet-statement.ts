import { PurseError } from "../errors/index.ts";
import { transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { findStatementLines, findStatementWallet } from "./statement-store.ts";

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

/**
 * A wallet's statement for a period, read in one repeatable-read snapshot (`Database.snapshot`)
 * so it reconciles by construction: opening balance (its postings before `from`) + each movement =
 * closing balance (its postings before `to`), which for a period ending now is the wallet's
 * balance. `ownerId`
 * restricts it to the wallet's owner (another user's wallet is NOT_FOUND); operators pass none.
 */
export async function walletStatement(
  db: Database,
  query: { number: string; from: Date; to: Date; ownerId?: number },
): Promise<WalletStatement> {
  if (!(query.from.getTime() < query.to.getTime())) throw new PurseError("INVALID_DATE", "to");
  return db.snapshot(async (tx) => {
    const wallet = await findStatementWallet(tx, query.number, query.from);
    if (!wallet || (query.ownerId !== undefined && wallet.userId !== query.ownerId)) {
      throw new PurseError("NOT_FOUND");
    }
    const found = await findStatementLines(tx, wallet, query.from, query.to);
    const precession = wallet.precession;
    const money = (minor: bigint) => formatMinor(minor, precession);
    const opening = wallet.openingMinor;
    let running = opening;
    let totalIn = 0n;
    let totalOut = 0n;
    const lines = found.map((row): StatementLine => {
      const amount = row.amountMinor;
      running += amount;
      if (amount > 0n) totalIn += amount;
      else totalOut -= amount;
      return {
        transactionId: row.transactionId,
        at: formatTimestamp(row.createdAt),
        type: row.type,
        typeName: transactionTypeName(row.type),
        status: row.status,
        label: row.label,
        description: row.description,
        amount: money(amount),
        fee: money(row.feeMinor),
        balanceAfter: money(running),
        operator: row.operator,
        reversesTransactionId: row.reversesTransactionId,
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
  });
}
