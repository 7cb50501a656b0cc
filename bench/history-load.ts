import {
  chainLinkSql,
  postingsArraySql,
  transactionHashSql,
} from "../packages/engine/src/ledger/ledger-hash.ts";
import { chainGenesisSql } from "../packages/engine/src/persistence/entities/wallet.ts";
import { merchants, walletsPerMerchant } from "./bench-fixture.ts";
import type { ScratchDatabase } from "./scratch-database.ts";

/** The merchant whose history is read: its share is loaded once, then only others' rows grow. */
export const historyMerchant = 1;

/** A bearer token for the history merchant, from `purse serve` at `url`. */
export async function merchantToken(url: string): Promise<string> {
  const response = await fetch(`${url}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: `bench${historyMerchant}`,
      client_secret: "bench-secret",
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
/** Its transactions, spread over the last `historyDays` days. */
export const merchantTransactions = 2_000;
export const historyDays = 365;

/**
 * Grows the ledger of a seeded bench database (bench-fixture.ts) to `total` transactions with SQL,
 * as `recordMovement` would have written them: transfers of 1.00 USD plus the 0.11 fee, a
 * transaction row, its three postings, the wallet balances, the transaction hashes and every
 * wallet's hash chain (so `purse audit` passes afterwards). The first rows, up to
 * `merchantTransactions`, all involve `historyMerchant` (as sender or receiver, alternately);
 * every later row is between two other merchants.
 */
export async function growLedger(database: ScratchDatabase, from: number, total: number): Promise<void> {
  if (total <= from) return;
  const others = merchants - 1;
  // Wallet ids are merchant * 1000 + index (bench-fixture.ts).
  const walletOf = (merchant: string, index: string) =>
    `(${merchant}) * 1000 + ((${index}) % ${walletsPerMerchant})`;
  const ownRow = `n <= ${merchantTransactions}`;
  const other = (shift: number) => `(2 + ((n + ${shift}) % ${others}))`;
  const sender = `case when ${ownRow} and n % 2 = 0 then ${historyMerchant} else ${other(0)} end`;
  const receiver = `case when ${ownRow} and n % 2 = 1 then ${historyMerchant}
    else case when ${other(7)} = ${other(0)} then ${other(8)} else ${other(7)} end end`;
  const postings = `(values ('fee', null::bigint, 1, 11::bigint), ('wallet', g.wallet_from_id, 1, -111::bigint),
    ('wallet', g.wallet_to_id, 1, 100::bigint)) as p(account, wallet_id, currency_id, amount_minor)`;
  await database.sql(`
    -- Bench data built consistent by construction (audited afterwards): skip the per-row foreign key triggers.
    set session_replication_role = replica;
    ${keepCounts}
    create temporary table grown as
      select (select coalesce(max(id), 0) from transactions) + n - ${from} as id,
        ${walletOf(sender, "n * 7")} as wallet_from_id, ${walletOf(receiver, "n * 13")} as wallet_to_id,
        ${sender} as user_id, 1 as type, 3 as status, 'Withdraw'::text as label, 1 as currency_id,
        100::bigint as amount_minor, 11::bigint as commission_minor, 111::bigint as amount_from_minor,
        100::bigint as amount_to_minor, null::text as external_id, null::text as idempotency_key,
        'history ' || n as description, ''::text as additional, null::text as operator,
        null::bigint as reverses_transaction_id,
        date_trunc('milliseconds', now() - make_interval(secs => ((n * 7919) % (${historyDays} * 86400))::double precision)) as created_at
      from generate_series(${from + 1}::bigint, ${total}::bigint) n;
    insert into transactions (id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
        amount_minor, commission_minor, amount_from_minor, amount_to_minor, description, additional,
        created_at, updated_at, hash)
      select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id, amount_minor,
        commission_minor, amount_from_minor, amount_to_minor, description, additional, created_at, created_at,
        ${transactionHashSql("g", postingsArraySql(postings))}
      from grown g order by id;
    select setval(pg_get_serial_sequence('transactions', 'id'), (select max(id) from transactions));
    insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at)
      select id, 'wallet', wallet_from_id, 1, -111, created_at from grown
      union all select id, 'wallet', wallet_to_id, 1, 100, created_at from grown
      union all select id, 'fee', null, 1, 11, created_at from grown;
    update wallets w set balance_minor = w.balance_minor + moved.delta
      from (select wallet_id, sum(delta) as delta from (
              select wallet_from_id as wallet_id, -111 as delta from grown
              union all select wallet_to_id, 100 from grown) as d group by wallet_id) as moved
      where moved.wallet_id = w.id;
    drop table grown;
    ${countsAsUsual}
    set session_replication_role = origin;`);
  await rechain(database);
  // As autovacuum would leave a table that grew over months: statistics, hint bits and the
  // visibility map set, and the load's dirty pages written out, so the measured phase neither pays
  // for the bulk load's write-back nor sets hint bits on every page it reads first.
  await database.sql(
    "vacuum (analyze) transactions, postings, wallets, history_counts, history_month_counts, wallet_days",
  );
  await database.sql("checkpoint");
}

/**
 * The daily history counts (migration 0009) and the wallets' daily nets (migration 0011) are kept
 * by statement triggers, which replica mode skips like the foreign key triggers: they fire `always`
 * during a bulk load, so both stay exact (`purse audit` recomputes them afterwards) at the cost of
 * one grouped upsert each per load.
 */
const keepCounts = `alter table transactions enable always trigger history_counts_insert;
  alter table postings enable always trigger wallet_days_insert;`;
const countsAsUsual = `alter table transactions enable trigger history_counts_insert;
  alter table postings enable trigger wallet_days_insert;`;

/** The merchant whose own history grows in `growMerchantHistory`: one transaction every 30 s. */
export const historySpacingSeconds = 30;

/**
 * The issue's case (issue 23): `historyMerchant`'s own history grows to `total` transactions,
 * one every 30 s going back from now, each between one of its wallets and another merchant's
 * (sent and received alternately), written as `recordMovement` would have: transfers of 1.00 USD
 * plus the 0.11 fee, the row, its postings, balances, hashes and chains (audited afterwards).
 * Rows `from + 1` to `total` are added, older than those loaded before.
 */
export async function growMerchantHistory(
  database: ScratchDatabase,
  from: number,
  total: number,
): Promise<void> {
  if (total <= from) return;
  const others = merchants - 1;
  const own = `(${historyMerchant} * 1000 + ((n * 7) % ${walletsPerMerchant}))`;
  const other = `((2 + (n % ${others})) * 1000 + ((n * 13) % ${walletsPerMerchant}))`;
  const postings = `(values ('fee', null::bigint, 1, 11::bigint), ('wallet', g.wallet_from_id, 1, -111::bigint),
    ('wallet', g.wallet_to_id, 1, 100::bigint)) as p(account, wallet_id, currency_id, amount_minor)`;
  await database.sql(`
    set session_replication_role = replica;
    ${keepCounts}
    create temporary table grown as
      select (select coalesce(max(id), 0) from transactions) + n - ${from} as id,
        case when n % 2 = 0 then ${own} else ${other} end as wallet_from_id,
        case when n % 2 = 0 then ${other} else ${own} end as wallet_to_id,
        case when n % 2 = 0 then ${historyMerchant} else 2 + (n % ${others}) end as user_id,
        1 as type, 3 as status, 'Withdraw'::text as label, 1 as currency_id,
        100::bigint as amount_minor, 11::bigint as commission_minor, 111::bigint as amount_from_minor,
        100::bigint as amount_to_minor, null::text as external_id, null::text as idempotency_key,
        'history ' || n as description, ''::text as additional, null::text as operator,
        null::bigint as reverses_transaction_id,
        date_trunc('milliseconds', now() - make_interval(secs => (n * ${historySpacingSeconds})::double precision)) as created_at
      from generate_series(${from + 1}::bigint, ${total}::bigint) n;
    insert into transactions (id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
        amount_minor, commission_minor, amount_from_minor, amount_to_minor, description, additional,
        created_at, updated_at, hash)
      select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id, amount_minor,
        commission_minor, amount_from_minor, amount_to_minor, description, additional, created_at, created_at,
        ${transactionHashSql("g", postingsArraySql(postings))}
      from grown g order by id;
    select setval(pg_get_serial_sequence('transactions', 'id'), (select max(id) from transactions));
    insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at)
      select id, 'wallet', wallet_from_id, 1, -111, created_at from grown
      union all select id, 'wallet', wallet_to_id, 1, 100, created_at from grown
      union all select id, 'fee', null, 1, 11, created_at from grown;
    update wallets w set balance_minor = w.balance_minor + moved.delta
      from (select wallet_id, sum(delta) as delta from (
              select wallet_from_id as wallet_id, -111 as delta from grown
              union all select wallet_to_id, 100 from grown) as d group by wallet_id) as moved
      where moved.wallet_id = w.id;
    drop table grown;
    ${countsAsUsual}
    set session_replication_role = origin;`);
  await rechain(database);
  await database.sql(
    "vacuum (analyze) transactions, postings, wallets, history_counts, history_month_counts, wallet_days",
  );
  await database.sql("checkpoint");
}

/**
 * Every wallet's chain again, set-based: a running aggregate of `chainLinkSql` over the wallet's
 * postings in transaction order (a loop per posting, as the migration does, takes minutes at 1M).
 */
async function rechain(database: ScratchDatabase): Promise<void> {
  await database.sql(`
    create or replace function pg_temp.chain_step(link bytea, hash bytea) returns bytea
      language sql immutable as $$ select ${chainLinkSql("link", "hash")} $$;
    create aggregate pg_temp.chain(bytea) (sfunc = pg_temp.chain_step, stype = bytea,
      initcond = '${chainGenesisSql.slice(1, chainGenesisSql.indexOf("'", 1))}');
    update postings p set chain_hash = links.link
      from (select p.id, pg_temp.chain(t.hash) over (partition by p.wallet_id order by p.transaction_id) as link
            from postings p join transactions t on t.id = p.transaction_id
            where p.wallet_id is not null) as links
      where links.id = p.id and p.chain_hash is distinct from links.link;
    update wallets w set chain_head = last.chain_hash
      from (select distinct on (wallet_id) wallet_id, chain_hash from postings
            where wallet_id is not null order by wallet_id, transaction_id desc) as last
      where last.wallet_id = w.id;`);
}
