import { Migration } from "@mikro-orm/migrations";

/**
 * `fold_counters(max_rows, owner)`: the counters' fold (migrations 0020 and 0021) of every owner's
 * deltas, up to `max_rows` of each kind (`owner` null), or of one owner's, all of them. On Citus
 * the fold runs owner by owner (docs/sharding.md): deltas deleted by `ctid`, as the fold of every
 * owner picks its batch, are refused on a distributed table, and a statement that names one owner
 * runs on that owner's shard alone. The engine repeated the fold's SQL with an owner filter for
 * that (ledger/counter-fold-store.ts); now both are this one function, its two delete clauses
 * chosen before the statements run (`execute`, so each is planned with the owner's value, which
 * Citus routes by).
 *
 * `fold_counters(max_rows)` stays, folding every owner's (a process of the release before this one
 * calls it), and takes the schema's folder lock as before; one owner's fold takes no lock: two
 * folders of one owner fold each delta once, the second's delete finding the rows gone.
 * Runs in every schema, created under each one's search path, as 0020 and 0021 did.
 */
export class Migration0023FoldCountersByOwner extends Migration {
  override name = "0023-fold-counters-by-owner";

  override up(): void {
    this.addSql(`create function fold_counters(max_rows integer, owner bigint) returns integer language plpgsql
      set search_path from current as $$
      declare
        history_rows integer;
        day_rows integer;
        history_which text := case when owner is null
          then 'ctid = any (array(select ctid from history_count_deltas limit $1))' else 'user_id = $2' end;
        day_which text := case when owner is null
          then 'ctid = any (array(select ctid from wallet_day_deltas limit $1))' else 'user_id = $2' end;
      begin
        if owner is null
          and not pg_try_advisory_xact_lock(hashtext('purse fold_counters'), hashtext(current_schema())) then
          return 0;
        end if;
        execute format($fold$
          with moved as (
            delete from history_count_deltas where %s returning *
          ), grouped as (
            select wallet_id, day, currency_id, type, status, internal, user_id, sum(n) as n,
              sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
            from moved
            group by 1, 2, 3, 4, 5, 6, 7
          ), days as (
            insert into history_counts as h
              (wallet_id, day, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
            select * from grouped
            order by wallet_id, day, type, status, internal, currency_id, user_id
            on conflict (wallet_id, day, type, status, internal, currency_id, user_id) do update
              set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
                commission_minor = h.commission_minor + excluded.commission_minor
          ), months as (
            insert into history_month_counts as m
              (wallet_id, month, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
            select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
              user_id, sum(n), sum(amount_minor), sum(commission_minor)
            from grouped
            group by 1, 2, 3, 4, 5, 6, 7
            order by 1, 2, 4, 5, 6, 3, 7
            on conflict (wallet_id, month, type, status, internal, currency_id, user_id) do update
              set n = m.n + excluded.n, amount_minor = m.amount_minor + excluded.amount_minor,
                commission_minor = m.commission_minor + excluded.commission_minor
          )
          select count(*)::integer from moved$fold$, history_which)
          into history_rows using max_rows, owner;
        execute format($fold$
          with moved as (
            delete from wallet_day_deltas where %s returning *
          ), folded as (
            insert into wallet_days as d (wallet_id, day, user_id, net_minor)
            select wallet_id, day, user_id, sum(net_minor) from moved
            group by 1, 2, 3
            having sum(net_minor) <> 0
            order by 1, 2, 3
            on conflict (wallet_id, day, user_id) do update set net_minor = d.net_minor + excluded.net_minor
          )
          select count(*)::integer from moved$fold$, day_which)
          into day_rows using max_rows, owner;
        return greatest(history_rows, day_rows);
      end
    $$`);
    this.addSql(`create or replace function fold_counters(max_rows integer) returns integer language sql
      set search_path from current
      as $$ select fold_counters(max_rows, null::bigint) $$`);
  }
}
