/**
 * The ledger's tamper evidence, as SQL shared by the writer (`recordMovement`), the migration that
 * sealed the history written before it, and `purse audit`. Format `purse-ledger-v1`:
 *
 * - A transaction's **hash** is SHA-256 over the UTF-8 text of a JSON array (PostgreSQL's `jsonb`
 *   text: elements separated by `", "`): the format tag, the columns in `hashedColumns` order, the
 *   creation time (`YYYY-MM-DDTHH:MM:SS.ffffff`, UTC) and the array of ALL its postings
 *   `[account, wallet_id, currency_id, amount_minor]` sorted by account, wallet id (null first) and
 *   amount. Fee, equity and voucher postings are covered here, by the transaction they belong to.
 * - Each **wallet** has its own chain: a wallet's posting carries `chain_hash = SHA-256(previous
 *   link || transaction hash)`, the previous link being the wallet's `chain_head` (32 zero bytes
 *   before its first movement: `chainGenesisSql`, the column's default since migration 0005); the
 *   movement moves `chain_head` on to the new link.
 *
 * Why per wallet: a movement already holds its wallets' row locks, so reading and moving their
 * chain heads costs no wait and no round trip (it is folded into the movement's one statement). One
 * global chain, or one per fee account, would be a row every payment of the service (or of a
 * currency) must lock in turn. Changing anything here breaks every stored hash: a new format needs a
 * new tag and a migration.
 */
export const hashFormat = "purse-ledger-v1";

/**
 * The link before a wallet's first movement: 32 zero bytes, `wallets.chain_head`'s default. Migration
 * 0005 holds its own copy of this text (a shipped migration imports no application code).
 */
export const chainGenesisSql = `'\\x${"00".repeat(32)}'::bytea`;

/** The `transactions` columns a hash covers, in this order (then `created_at`, then the postings). */
export const hashedColumns = [
  "id",
  "user_id",
  "type",
  "status",
  "label",
  "wallet_from_id",
  "wallet_to_id",
  "currency_id",
  "amount_minor",
  "commission_minor",
  "amount_from_minor",
  "amount_to_minor",
  "external_id",
  "idempotency_key",
  "description",
  "additional",
  "operator",
  "reverses_transaction_id",
] as const;

/**
 * SQL for the hash of the transaction row `t` (any relation with the `hashedColumns` and
 * `created_at`), given SQL for its postings array (`postingsArraySql`).
 */
export function transactionHashSql(t: string, postingsArray: string): string {
  const columns = hashedColumns.map((column) => `${t}.${column}`).join(", ");
  return `sha256(convert_to((jsonb_build_array('${hashFormat}', ${columns},
    to_char(${t}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), ${postingsArray})
    || ${refundOfSuffixSql(t)})::text, 'UTF8'))`;
}

/**
 * A refund's `refund_of` (migration 0016), sealed as one more element after the postings; nothing
 * for every other transaction, whose array, text and hash stay exactly what format v1 made them
 * (so no stored hash changes, and the format keeps its tag). Moving a refund to another checkout
 * breaks its hash like any other edit.
 */
function refundOfSuffixSql(t: string): string {
  return `case when ${t}.refund_of is null then '[]'::jsonb else jsonb_build_array(${t}.refund_of) end`;
}

/**
 * SQL for a transaction's postings array, where `from` names a relation aliased `p` with the
 * columns account, wallet_id, currency_id, amount_minor (and any filter), e.g.
 * `postings p where p.transaction_id = t.id`.
 */
export function postingsArraySql(from: string): string {
  return `(select coalesce(jsonb_agg(jsonb_build_array(p.account, p.wallet_id, p.currency_id, p.amount_minor)
      order by p.account collate "C", p.wallet_id nulls first, p.amount_minor), '[]'::jsonb)
    from ${from})`;
}

/** SQL for the next link of a chain. */
export function chainLinkSql(previous: string, transactionHash: string): string {
  return `sha256(${previous} || ${transactionHash})`;
}
