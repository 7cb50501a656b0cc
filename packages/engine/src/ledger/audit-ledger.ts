import type { SqlEntityManager } from "@mikro-orm/sql";
import type { Database } from "../persistence/database.ts";
import {
  copyLedgerForAudit,
  foreignCurrencyPostingRows,
  historyCountMismatchRows,
  historyMonthMismatchRows,
  ledgerCounts,
  negativeSystemAccountRows,
  negativeWalletRows,
  unbalancedTransactionRows,
  walletBalanceMismatchRows,
  walletDayMismatchRows,
} from "./audit-store.ts";
import { misownedPostingRows } from "./owner-audit-store.ts";
import { refundBreachRows } from "./refund-audit-store.ts";
import { brokenChainLinks } from "./verify-chains.ts";

export interface AuditCheck {
  readonly name: string;
  /** One line per breach; empty when the invariant holds. */
  readonly breaches: readonly string[];
}

export interface AuditReport {
  readonly ok: boolean;
  readonly checks: readonly AuditCheck[];
  readonly transactions: number;
  readonly postings: number;
  /** The lowest transaction id whose hash or wallet-chain link does not verify, if any. */
  readonly firstBrokenLink: number | null;
}

/** How many breaches of one kind are listed before the rest are only counted. */
const breachesShown = 50;

/**
 * Verifies the ledger's invariants in one repeatable-read snapshot: postings balance per
 * transaction and currency, wallet balances equal their postings, no account is below zero,
 * every posting is in its wallet's currency and belongs to its wallet's owner (migration 0021),
 * the history's daily counts count the transactions (migration 0009: a drift would make totals
 * wrong while every page looks right) and each month's
 * counts their days (migration 0012), the wallets' daily nets equal their postings (migration 0011:
 * statements' opening balances), each counter as its folded rows plus the deltas not folded yet
 * (migration 0020, the same snapshot), every refund points at a paid checkout and no checkout is
 * refunded beyond what was paid (migration 0016), and the hash chains verify (ledger/verify-chains.ts):
 * an edit that keeps every balance consistent still breaks its transaction's hash or a link.
 */
export async function auditLedger(db: Database): Promise<AuditReport> {
  const distributed = await db.distributed();
  return db.em().transactional(
    async (em) => {
      if (distributed) await copyLedgerForAudit(em);
      const checks = [
        await unbalancedTransactions(em),
        await walletBalanceMismatches(em),
        await negativeAccounts(em),
        await foreignCurrencyPostings(em),
        await misownedPostings(em),
        await historyCountMismatches(em),
        await historyMonthMismatches(em),
        await walletDayMismatches(em),
        await refundBreaches(em),
      ];
      const chains = await brokenChainLinks(em, breachesShown);
      checks.push(...chains.checks);
      const counts = await ledgerCounts(em);
      return {
        ok: checks.every((check) => check.breaches.length === 0),
        checks,
        transactions: Number(counts?.transactions ?? 0),
        postings: Number(counts?.postings ?? 0),
        firstBrokenLink: chains.firstBrokenLink,
      };
    },
    // On Citus the copy is written (temporary tables, gone at COMMIT); the ledger is only read.
    { isolationLevel: "repeatable read", readOnly: !distributed },
  );
}

async function unbalancedTransactions(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await unbalancedTransactionRows(em, breachesShown);
  return {
    name: "every transaction's postings sum to zero per currency",
    breaches: found.map(
      (r) => `transaction ${r.transaction_id}: ${r.code} postings sum to ${r.total} minor units`,
    ),
  };
}

async function walletBalanceMismatches(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await walletBalanceMismatchRows(em, breachesShown);
  return {
    name: "every wallet balance equals the sum of its postings",
    breaches: found.map(
      (r) => `wallet ${r.number}: balance ${r.balance} but postings sum to ${r.posted} (minor units)`,
    ),
  };
}

async function negativeAccounts(em: SqlEntityManager): Promise<AuditCheck> {
  const wallets = await negativeWalletRows(em, breachesShown);
  // Equity is the counterpart of every opening balance and is negative by design.
  const system = await negativeSystemAccountRows(em);
  return {
    name: "no balance below zero",
    breaches: [
      ...wallets.map((r) => `wallet ${r.number}: balance ${r.balance} minor units`),
      ...system.map((r) => `${r.account} account ${r.code}: balance ${r.total} minor units`),
    ],
  };
}

async function foreignCurrencyPostings(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await foreignCurrencyPostingRows(em, breachesShown);
  return {
    name: "every posting is in its wallet's currency",
    breaches: found.map((r) => `posting ${r.id} on wallet ${r.number} is in another currency`),
  };
}

async function misownedPostings(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await misownedPostingRows(em, breachesShown);
  return {
    name: "every posting belongs to its wallet's owner (a system account's to the acting user)",
    breaches: found.map((r) => `posting ${r.id} belongs to user ${r.user_id}, not ${r.expected}`),
  };
}

async function historyCountMismatches(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await historyCountMismatchRows(em, breachesShown);
  return {
    name: "the history's daily counts equal the transactions",
    breaches: found.map(
      (r) =>
        `wallet ${r.number ?? `id ${r.wallet_id}`} on ${r.day}, type ${r.type}, status ${r.status}${r.internal ? " (own transfer received)" : ""}: ${r.counted} counted but ${r.expected} transactions (or their amounts differ)`,
    ),
  };
}

async function historyMonthMismatches(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await historyMonthMismatchRows(em, breachesShown);
  return {
    name: "the history's monthly counts equal their days",
    breaches: found.map(
      (r) =>
        `wallet ${r.number ?? `id ${r.wallet_id}`} in the month of ${r.month}, type ${r.type}, status ${r.status}${r.internal ? " (own transfer received)" : ""}: ${r.counted} counted but its days count ${r.expected}`,
    ),
  };
}

async function walletDayMismatches(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await walletDayMismatchRows(em, breachesShown);
  return {
    name: "the wallets' daily nets equal their postings",
    breaches: found.map(
      (r) =>
        `wallet ${r.number ?? `id ${r.wallet_id}`} on ${r.day}: ${r.kept} kept but its postings sum to ${r.expected}`,
    ),
  };
}

async function refundBreaches(em: SqlEntityManager): Promise<AuditCheck> {
  const found = await refundBreachRows(em, breachesShown);
  return {
    name: "every refund points at a paid checkout, which its refunds never exceed",
    breaches: found.map((r) => {
      const at = `transaction ${r.refund_of}`;
      if (!r.paid_checkout) return `${at}: refunded ${r.refunds} time(s) but it is not a paid checkout`;
      if (!r.well_formed)
        return `${at}: a refund of it is not a WITHDRAW from its receiver back to its payer`;
      return `${at}: refunds add up to ${r.refunded} minor units, more than the ${r.paid} paid`;
    }),
  };
}
