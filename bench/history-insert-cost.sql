-- The history counters' cost per movement (docs/benchmark.md): 2 000 single-row inserts into
-- `transactions` in a PL/pgSQL loop, each firing the statement triggers that upsert the counts,
-- then rolled back. Run against a loaded ledger (PURSE_BENCH_KEEP_DATABASE=1 npm run bench):
--   psql -h 127.0.0.1 -U postgres -d <kept database> -f bench/history-insert-cost.sql
-- Amounts cycle over three decades like the loader's (history-load.ts), so the inserts touch the
-- buckets a real merchant's would; the wallets are those of the newest loaded transaction.
vacuum history_counts, history_month_counts, history_amount_counts, history_amount_month_counts,
  history_amount_year_counts;
begin;
do $$
declare
  newest transactions;
  started timestamptz;
  amount bigint;
begin
  select * into newest from transactions order by id desc limit 1;
  started := clock_timestamp();
  for i in 1..2000 loop
    amount := (100 + (i * 7919) % 900) * (10 ^ (i % 3))::bigint;
    insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id, currency_id, amount_minor,
        commission_minor, amount_from_minor, amount_to_minor, created_at, updated_at)
      values (newest.user_id, 1, 3, newest.wallet_from_id, newest.wallet_to_id, 1, amount, amount / 100 + 10,
        amount + amount / 100 + 10, amount, clock_timestamp(), clock_timestamp());
  end loop;
  raise notice 'ms per insert: %',
    round((extract(epoch from clock_timestamp() - started) * 1000 / 2000)::numeric, 3);
end $$;
rollback;
