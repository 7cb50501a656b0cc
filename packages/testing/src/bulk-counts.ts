/**
 * The history's counter deltas for transactions a test bulk-loads with SQL (`where` selects them
 * from `transactions t`), as the movement's statement writes them for its own (migration 0021;
 * ledger/ledger-write-store.ts): each on its sending wallet, and on its receiving wallet unless
 * that is the same one, `internal` when the two have one owner. A bulk load has no posting here,
 * so no wallet day delta. Run it in the load's transaction or right after it.
 */
export function countBulkTransactionsSql(where: string): string {
  return `insert into history_count_deltas
      (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor, user_id)
    select side.wallet_id, (t.created_at at time zone 'UTC')::date, t.currency_id, t.type, t.status,
      side.internal, count(*), sum(t.amount_minor), sum(t.commission_minor), side.user_id
    from transactions t
    left join wallets wf on wf.id = t.wallet_from_id
    left join wallets wt on wt.id = t.wallet_to_id
    cross join lateral (values
      (t.wallet_from_id, wf.user_id, false),
      (case when t.wallet_to_id is distinct from t.wallet_from_id then t.wallet_to_id end, wt.user_id,
       coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, user_id, internal)
    where side.wallet_id is not null and (${where})
    group by 1, 2, 3, 4, 5, 6, 10`;
}
