import { rows, type SqlRunner, sql } from "../persistence/sql.ts";

/**
 * The schemas whose counters are folded (migration 0020's `fold_counters`): the live one, and any
 * other migrated with the same migrations (test mode's), each folded by its own function, which
 * keeps the search path it was created under.
 */
export async function foldingSchemas(runner: SqlRunner): Promise<string[]> {
  const found = await rows(
    runner,
    sql<{ schema: string }>`select n.nspname::text as schema
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proname = 'fold_counters' order by 1`,
  );
  return found.map((row) => row.schema);
}

/**
 * Folds up to `maxRows` deltas of each kind into `schema`'s counters, in one transaction (the
 * statement's own); returns the larger of the two numbers of deltas folded, 0 when another process
 * holds the schema's folder lock.
 */
export async function foldBatch(runner: SqlRunner, schema: string, maxRows: number): Promise<number> {
  const [row] = await rows(
    runner,
    sql<{ folded: number }>`select ${sql.id(schema, "fold_counters")}(${maxRows}::integer) as folded`,
  );
  return Number(row?.folded ?? 0);
}

/**
 * On Citus (persistence/citus-routing.ts), the owners whose deltas wait to be folded in `schema`,
 * at most `limit` of them: `fold_counters` deletes deltas by `ctid`, which Citus refuses on a
 * distributed table, so the deltas are folded owner by owner (`foldOwner`) instead.
 */
export async function ownersWithDeltas(runner: SqlRunner, schema: string, limit: number): Promise<number[]> {
  const found = await rows(
    runner,
    sql<{ user_id: string }>`select user_id::text from (
        select user_id from ${sql.id(schema, "history_count_deltas")}
        union select user_id from ${sql.id(schema, "wallet_day_deltas")}) as owners
      order by 1 limit ${limit}`,
  );
  return found.map((row) => Number(row.user_id));
}

/**
 * `fold_counters` for one owner's deltas in `schema`, all of them, in one statement that names
 * the owner everywhere (so Citus runs it on that owner's shard alone); returns the larger of the two
 * numbers of deltas folded. Two folders of one owner at once fold each delta once: the second's
 * delete finds the rows the first deleted gone.
 */
export async function foldOwner(runner: SqlRunner, schema: string, userId: number): Promise<number> {
  const table = (name: string) => sql.id(schema, name);
  const [row] = await rows(
    runner,
    sql<{ folded: number }>`
      with moved as (
        delete from ${table("history_count_deltas")} where user_id = ${userId}::bigint returning *
      ), grouped as (
        select wallet_id, day, currency_id, type, status, internal, user_id, sum(n) as n,
          sum(amount_minor) as amount_minor, sum(commission_minor) as commission_minor
        from moved group by 1, 2, 3, 4, 5, 6, 7
      ), days as (
        insert into ${table("history_counts")} as h
          (wallet_id, day, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
        select * from grouped
        order by wallet_id, day, type, status, internal, currency_id, user_id
        on conflict (wallet_id, day, type, status, internal, currency_id, user_id) do update
          set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
            commission_minor = h.commission_minor + excluded.commission_minor
      ), months as (
        insert into ${table("history_month_counts")} as m
          (wallet_id, month, currency_id, type, status, internal, user_id, n, amount_minor, commission_minor)
        select wallet_id, date_trunc('month', day::timestamp)::date, currency_id, type, status, internal,
          user_id, sum(n), sum(amount_minor), sum(commission_minor)
        from grouped
        group by 1, 2, 3, 4, 5, 6, 7
        order by 1, 2, 4, 5, 6, 3, 7
        on conflict (wallet_id, month, type, status, internal, currency_id, user_id) do update
          set n = m.n + excluded.n, amount_minor = m.amount_minor + excluded.amount_minor,
            commission_minor = m.commission_minor + excluded.commission_minor
      ), day_moved as (
        delete from ${table("wallet_day_deltas")} where user_id = ${userId}::bigint returning *
      ), day_folded as (
        insert into ${table("wallet_days")} as d (wallet_id, day, user_id, net_minor)
        select wallet_id, day, user_id, sum(net_minor) from day_moved
        group by 1, 2, 3
        having sum(net_minor) <> 0
        order by 1, 2, 3
        on conflict (wallet_id, day, user_id) do update set net_minor = d.net_minor + excluded.net_minor
      )
      select greatest((select count(*) from moved), (select count(*) from day_moved))::integer as folded`,
  );
  return Number(row?.folded ?? 0);
}
