import {
  chainLinkSql,
  postingsArraySql,
  transactionHashSql,
} from "../packages/engine/src/ledger/ledger-hash.ts";
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
  const others = merchants - 1;
  // Wallet ids are merchant * 1000 + index (bench-fixture.ts).
  const walletOf = (merchant: string, index: string) =>
    `(${merchant}) * 1000 + ((${index}) % ${walletsPerMerchant})`;
  const ownRow = `n <= ${merchantTransactions}`;
  const other = (shift: number) => `(2 + ((n + ${shift}) % ${others}))`;
  const sender = `case when ${ownRow} and n % 2 = 0 then ${historyMerchant} else ${other(0)} end`;
  const receiver = `case when ${ownRow} and n % 2 = 1 then ${historyMerchant}
    else case when ${other(7)} = ${other(0)} then ${other(8)} else ${other(7)} end end`;
  await loadTransfers(database, from, total, {
    walletFrom: walletOf(sender, "n * 7"),
    walletTo: walletOf(receiver, "n * 13"),
    user: sender,
    amount: "100",
    secondsAgo: `(n * 7919) % (${historyDays} * 86400)`,
  });
}

/**
 * The history's counts (migrations 0009, 0012) and the wallets' daily nets (migration 0011)
 * are kept by statement triggers, which replica mode skips like the foreign key triggers: they fire
 * `always` during a bulk load, so all stay exact (`purse audit` recomputes them afterwards) at the
 * cost of one grouped insert of deltas each per batch (migration 0020), folded after the load.
 */
// The movement appends the counters' deltas itself since migration 0021; a bulk load counts its rows
// with the same functions the remaining update and delete triggers call, through insert triggers of
// its own for the load's duration ("always": they fire under session_replication_role = replica).
const keepCounts = `create trigger bench_history_counts_insert after insert on transactions
    referencing new table as new_rows for each statement execute function history_counts_apply();
  create trigger bench_wallet_days_insert after insert on postings
    referencing new table as new_rows for each statement execute function wallet_days_apply();
  alter table transactions enable always trigger bench_history_counts_insert;
  alter table postings enable always trigger bench_wallet_days_insert;`;
const countsAsUsual = `drop trigger bench_history_counts_insert on transactions;
  drop trigger bench_wallet_days_insert on postings;`;

/** The merchant whose own history grows in `growMerchantHistory`: one transaction every 30 s. */
export const historySpacingSeconds = 30;

/**
 * The issue's case (issue 23): `historyMerchant`'s own history grows to `total` transactions,
 * one every 30 s going back from now, each between one of its wallets and another merchant's
 * (sent and received alternately), written as `recordMovement` would have: transfers of 1.00 to
 * 999.00 USD (`merchantAmount`) plus their fees, the row, its postings, balances, hashes and chains
 * (audited afterwards).
 * Rows `from + 1` to `total` are added, older than those loaded before.
 */
export async function growMerchantHistory(
  database: ScratchDatabase,
  from: number,
  total: number,
): Promise<void> {
  const others = merchants - 1;
  // A pair of rows (2k sent, 2k + 1 received) moves one amount between the same two wallets and
  // back, so over the load each wallet pays only its fees (its balance stays far above zero at 10M).
  const k = "(n / 2)";
  const own = `(${historyMerchant} * 1000 + ((${k} * 7) % ${walletsPerMerchant}))`;
  const other = `((2 + (${k} % ${others})) * 1000 + ((${k} * 13) % ${walletsPerMerchant}))`;
  await loadTransfers(database, from, total, {
    walletFrom: `case when n % 2 = 0 then ${own} else ${other} end`,
    walletTo: `case when n % 2 = 0 then ${other} else ${own} end`,
    user: `case when n % 2 = 0 then ${historyMerchant} else 2 + (${k} % ${others}) end`,
    amount: merchantAmount(k),
    secondsAgo: `n * ${historySpacingSeconds}`,
  });
}

/**
 * The amount of the pair `k`, in minor units: three significant digits (100 to 999) times 1, 10 or
 * 100, so 1.00 to 999.00 USD over three decades (a third of them 123.45 or more), deterministic
 * from `k` (integers only).
 */
export function merchantAmount(k: string): string {
  return `((100 + (${k} * 7919) % 900) * (array[1, 10, 100])[1 + ${k} % 3])::bigint`;
}

/** Rows written per statement by the loader: its progress is printed after each batch. */
const loadBatch = Number(process.env["PURSE_BENCH_LOAD_BATCH"] ?? 500_000);

/** SQL expressions of `n` (the row's number) for the loaded transfers. */
interface TransferRows {
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly user: string;
  /** Minor units; the fee is the bench currency's rule (1 % half up plus 0.10). */
  readonly amount: string;
  readonly secondsAgo: string;
}

/**
 * Rows `from + 1` to `total` as `recordMovement` writes them, in batches of `loadBatch`: the
 * transaction row with its fee (bench-fixture.ts: 1 % rounded half up plus 0.10, paid by the
 * sender) and hash, its three postings with each wallet's chain link computed as they are inserted
 * (continuing from the wallet's chain head: no second pass over the postings), the balances and
 * chain heads. The counts are kept by insert triggers made for the load (`keepCounts`). Prints each batch.
 */
async function loadTransfers(
  database: ScratchDatabase,
  from: number,
  total: number,
  rows: TransferRows,
): Promise<void> {
  if (total <= from) return;
  const postings = `(values ('fee', null::bigint, 1, g.commission_minor), ('wallet', g.wallet_from_id, 1, -g.amount_from_minor),
    ('wallet', g.wallet_to_id, 1, g.amount_to_minor)) as p(account, wallet_id, currency_id, amount_minor)`;
  const started = performance.now();
  for (let first = from + 1; first <= total; first += loadBatch) {
    const last = Math.min(total, first + loadBatch - 1);
    await database.sql(`
    -- Bench data built consistent by construction (audited afterwards): skip the per-row foreign key triggers.
    set session_replication_role = replica;
    ${keepCounts}
    -- A wallet's next link from its previous one, the first from the wallet's chain head.
    create or replace function pg_temp.chain_step(link bytea, head bytea, hash bytea) returns bytea
      language sql immutable as $$ select ${chainLinkSql("coalesce(link, head)", "hash")} $$;
    create or replace aggregate pg_temp.chain(bytea, bytea) (sfunc = pg_temp.chain_step, stype = bytea);
    create temporary table grown as
      select g.*, ${transactionHashSql("g", postingsArraySql(postings))} as hash
      from (select r.*, r.amount_minor + r.commission_minor as amount_from_minor, r.amount_minor as amount_to_minor
            from (select (select coalesce(max(id), 0) from transactions) + n - ${first - 1} as id,
                    ${rows.walletFrom} as wallet_from_id, ${rows.walletTo} as wallet_to_id,
                    ${rows.user} as user_id, 1 as type, 3 as status, 'Withdraw'::text as label, 1 as currency_id,
                    a.amount_minor, (a.amount_minor + 50) / 100 + 10 as commission_minor,
                    null::text as external_id, null::text as idempotency_key,
                    'history ' || n as description, ''::text as additional, null::text as operator,
                    null::bigint as reverses_transaction_id, null::bigint as refund_of,
                    date_trunc('milliseconds', now() - make_interval(secs => (${rows.secondsAgo})::double precision)) as created_at
                  from generate_series(${first}::bigint, ${last}::bigint) n
                  cross join lateral (select ${rows.amount} as amount_minor) as a) as r) as g;
    insert into transactions (id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
        amount_minor, commission_minor, amount_from_minor, amount_to_minor, description, additional,
        created_at, updated_at, hash)
      select id, user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id, amount_minor,
        commission_minor, amount_from_minor, amount_to_minor, description, additional, created_at, created_at, hash
      from grown order by id;
    select setval(pg_get_serial_sequence('transactions', 'id'), (select max(id) from transactions));
    create temporary table linked as
      select p.*, w.user_id, pg_temp.chain(w.chain_head, p.hash) over (partition by p.wallet_id order by p.transaction_id) as link
      from (select id as transaction_id, wallet_from_id as wallet_id, -amount_from_minor as amount_minor, created_at, hash
            from grown
            union all select id, wallet_to_id, amount_to_minor, created_at, hash from grown) as p
      join wallets w on w.id = p.wallet_id;
    insert into postings (transaction_id, account, wallet_id, currency_id, amount_minor, created_at, chain_hash, user_id)
      select transaction_id, 'wallet', wallet_id, 1, amount_minor, created_at, link, user_id from linked
      union all select id, 'fee', null, 1, commission_minor, created_at, null, user_id from grown;
    update wallets w set balance_minor = w.balance_minor + moved.delta, chain_head = moved.head
      from (select distinct on (wallet_id) wallet_id, sum(amount_minor) over (partition by wallet_id) as delta,
              link as head
            from linked order by wallet_id, transaction_id desc) as moved
      where moved.wallet_id = w.id;
    drop table grown;
    drop table linked;
    ${countsAsUsual}
    set session_replication_role = origin;`);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `    loaded ${last - from} of ${total - from} transactions in ${seconds.toFixed(0)} s (${((last - from) / seconds).toFixed(0)}/s)`,
    );
  }
  // As autovacuum would leave a table that grew over months: statistics, hint bits and the
  // visibility map set, and the load's dirty pages written out, so the measured phase neither pays
  // for the bulk load's write-back nor sets hint bits on every page it reads first.
  // The counters' deltas (migration 0020) folded, as the running server's folder would have.
  await database.sql("do $$ begin while fold_counters(100000) = 100000 loop end loop; end $$");
  await database.sql(
    "vacuum (analyze) transactions, postings, wallets, history_counts, history_month_counts, wallet_days, history_count_deltas, wallet_day_deltas",
  );
  await database.sql("checkpoint");
}
