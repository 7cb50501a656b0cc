import type { SqlEntityManager } from "@mikro-orm/sql";
import { toId } from "../persistence/sql.ts";
import { brokenLinkRows, hashMismatchRows, staleChainHeadRows } from "./audit-store.ts";

export interface ChainCheck {
  readonly name: string;
  readonly breaches: readonly string[];
}

export interface ChainVerification {
  readonly checks: readonly ChainCheck[];
  /** The lowest transaction id whose hash or chain link fails; null when every one verifies. */
  readonly firstBrokenLink: number | null;
}

/**
 * Recomputes every transaction's hash and every wallet's chain (ledger/ledger-hash.ts). Each
 * check compares a stored value with one recomputed from the stored value before it, so one edit
 * is reported at the transaction it touched, not at every transaction after it.
 */
export async function brokenChainLinks(em: SqlEntityManager, limit: number): Promise<ChainVerification> {
  const hashes = await hashMismatchRows(em, limit);
  const links = await brokenLinkRows(em, limit);
  const heads = await staleChainHeadRows(em, limit);
  const broken = [...hashes.map((r) => toId(r.id)), ...links.map((r) => toId(r.transaction_id))];
  return {
    checks: [
      {
        name: "every transaction's hash matches its content and postings",
        breaches: hashes.map((r) =>
          r.sealed
            ? `transaction ${r.id}: its hash does not match its content or postings (edited after it was written)`
            : `transaction ${r.id}: has no hash (written outside the ledger's writer)`,
        ),
      },
      {
        name: "every wallet's hash chain links up",
        breaches: links.map(
          (r) =>
            `transaction ${r.transaction_id} on wallet ${r.number}: its chain link does not follow from the wallet's previous link (a transaction before it was removed, reordered or re-hashed)`,
        ),
      },
      {
        name: "every wallet's chain head is its last link",
        breaches: heads.map(
          (r) =>
            `wallet ${r.number}: chain head is not the link of its last transaction${r.last_transaction_id ? ` (${r.last_transaction_id})` : ""}`,
        ),
      },
    ],
    firstBrokenLink: broken.length === 0 ? null : Math.min(...broken),
  };
}
