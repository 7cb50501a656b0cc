import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql, toId } from "../persistence/sql.ts";
import { chainGenesisSql, chainLinkSql, postingsArraySql, transactionHashSql } from "./ledger-hash.ts";

export interface ChainCheck {
  readonly name: string;
  readonly breaches: readonly string[];
}

export interface ChainVerification {
  readonly checks: readonly ChainCheck[];
  /** The lowest transaction id whose hash or chain link fails; null when every one verifies. */
  readonly firstBrokenLink: number | null;
}

const recomputedHash = sql.raw(
  transactionHashSql("t", postingsArraySql("postings p where p.transaction_id = t.id")),
);
const expectedLink = sql.raw(chainLinkSql("w.previous", "w.hash"));
const genesis = sql.raw(chainGenesisSql);

/**
 * Recomputes every transaction's hash and every wallet's chain (ledger/ledger-hash.ts). Each
 * check compares a stored value with one recomputed from the stored value before it, so one edit
 * is reported at the transaction it touched, not at every transaction after it.
 */
export async function brokenChainLinks(em: SqlEntityManager, limit: number): Promise<ChainVerification> {
  const hashes = await rows(
    em,
    sql<{ id: string; sealed: boolean }>`
      select t.id, t.hash is not null as sealed from transactions t
      where t.hash is distinct from ${recomputedHash}
      order by t.id limit ${limit}`,
  );
  const links = await rows(
    em,
    sql<{ transaction_id: string; number: string }>`
      with links as (
        select p.wallet_id, p.transaction_id, count(distinct p.chain_hash) as variants,
          bool_and(p.chain_hash is not null) as complete, (array_agg(p.chain_hash))[1] as link
        from postings p where p.wallet_id is not null
        group by p.wallet_id, p.transaction_id
      ), w as (
        select links.*, t.hash,
          lag(links.link, 1, ${genesis}) over (partition by links.wallet_id order by links.transaction_id) as previous
        from links join transactions t on t.id = links.transaction_id
      )
      select w.transaction_id, wallets.number from w join wallets on wallets.id = w.wallet_id
      where not coalesce(w.complete and w.variants = 1 and w.link = ${expectedLink}, false)
      order by w.transaction_id, w.wallet_id limit ${limit}`,
  );
  const heads = await rows(
    em,
    sql<{ number: string; last_transaction_id: string | null }>`
      select w.number, last.transaction_id as last_transaction_id from wallets w
      left join lateral (
        select transaction_id, chain_hash from postings
        where wallet_id = w.id order by transaction_id desc limit 1
      ) as last on true
      where w.chain_head is distinct from coalesce(last.chain_hash, ${genesis})
      order by w.id limit ${limit}`,
  );
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
