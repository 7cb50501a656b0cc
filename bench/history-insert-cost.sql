-- The history counters' cost per movement (docs/benchmark.md): 2 000 single-row inserts into
-- `transactions`, each firing the statement triggers that keep the counts (since migration 0020 they
-- append deltas, folded later by `fold_counters`; before it they upserted the counts) and each its own
-- committed transaction (a procedure that commits in its loop), as movements are: counter rows
-- that every insert updates are pruned between transactions instead of growing a chain of versions
-- inside one. The 2 000 rows are deleted afterwards (the triggers take their counts back).
-- synchronous_commit is off: the WAL flush per commit is the disk's cost, not the counters'.
-- Amounts cycle over three decades like the loader's (history-load.ts); the wallets are those of the
-- newest transaction. On a ledger kept by the bench (PURSE_BENCH_KEEP_DATABASE=1 npm run bench):
--   psql -h 127.0.0.1 -U postgres -d <kept database> -f bench/history-insert-cost.sql
set synchronous_commit = off;
vacuum history_counts, history_month_counts;
create procedure history_insert_cost() language plpgsql as $$
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
        commission_minor, amount_from_minor, amount_to_minor, description, created_at, updated_at)
      values (newest.user_id, 1, 3, newest.wallet_from_id, newest.wallet_to_id, 1, amount, amount / 100 + 10,
        amount + amount / 100 + 10, amount, 'history-insert-cost', clock_timestamp(), clock_timestamp());
    commit;
  end loop;
  raise notice 'ms per insert: %',
    round((extract(epoch from clock_timestamp() - started) * 1000 / 2000)::numeric, 3);
end $$;
call history_insert_cost();
drop procedure history_insert_cost();
delete from transactions where description = 'history-insert-cost';
