import { rowsEach } from "../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sendAhead, sql } from "../persistence/sql.ts";
import {
  lockWalletsByNumberOnCitus,
  selectVersionedWallets,
  type WalletRow,
  type WalletVersionColumns,
  type WalletVersions,
} from "../wallet/wallet-store.ts";

/**
 * The movement pipeline's SQL (ledger/run-movement.ts): the transaction's first statement
 * (bounds and the prior request, ledger/bound-transaction.ts) and the ledger write
 * (ledger/record-movement.ts, whose statement is ledger/ledger-write-store.ts). The wallet locks
 * are wallet/wallet-store.ts.
 */

/** The prior request an idempotency key names: its transaction id and fingerprint, if any. */
export interface PriorRequest {
  readonly id: string | null;
  readonly request_hash: string | null;
}

/** Where to look a prior request up: a user's payment_id and Idempotency-Key, or an operator's key. */
export interface PriorKeys {
  readonly userId: number;
  readonly externalId: string | null;
  readonly idempotencyKey: string | null;
  readonly operator: boolean;
}

function boundSettings(boundMs: number, lockBoundMs = boundMs) {
  // Whole milliseconds, at least one: zero would mean no bound at all.
  const whole = (ms: number) => String(Math.max(1, Math.floor(ms)));
  return sql`set_config('lock_timeout', ${whole(lockBoundMs)}, true) as lock_timeout,
    set_config('statement_timeout', ${whole(boundMs)}, true) as statement_timeout`;
}

/**
 * `SET LOCAL` statement_timeout to `boundMs` and lock_timeout to `lockBoundMs` (the same unless
 * given), by name (`purse_bounds`). Nothing waits for its answer, so it leaves with the
 * transaction's next statement (`sendAhead`).
 */
export async function setBounds(tx: SqlRunner, boundMs: number, lockBoundMs = boundMs): Promise<void> {
  const settings = boundSettings(boundMs, lockBoundMs);
  await sendAhead(tx, sql`select ${settings}`, "purse_bounds");
}

/**
 * Where a prior request may be recorded. Operator keys in operator_keys (migration 0025); a user's
 * payment_id too (unique for good), and the Idempotency-Key in idempotency_keys until it is
 * pruned (migration 0008). The keys are values, or columns of a row they are looked up for.
 */
function priorCandidates(
  keys: { userId: unknown; externalId: unknown; idempotencyKey: unknown },
  operator: boolean,
) {
  return operator
    ? sql`select transaction_id as id, request_hash from operator_keys where key = ${keys.idempotencyKey}`
    : sql`select id, request_hash from transactions
          where user_id = ${keys.userId} and external_id = ${keys.externalId}
          union all
          select transaction_id, request_hash from idempotency_keys
          where user_id = ${keys.userId} and key = ${keys.idempotencyKey}`;
}

/** The same bounds, and in the same statement the prior request `keys` name (or a row of nulls). */
export async function setBoundsAndFindPrior(
  tx: SqlRunner,
  boundMs: number,
  keys: PriorKeys,
): Promise<PriorRequest | undefined> {
  const settings = boundSettings(boundMs);
  const operator = keys.operator;
  const candidates = priorCandidates(keys, operator);
  return firstRow(
    tx,
    sql<PriorRequest>`
      select ${settings}, prior.id, prior.request_hash
      from (select 1) as one
      left join lateral (
        select id, request_hash from (${candidates}) as found
        order by id limit 1
      ) as prior on true`,
    operator ? "purse_bounds_operator_key" : "purse_bounds_prior",
  );
}

/**
 * `asked` (each of `keys`, numbered `n` from 1) and `prior`: the prior request each names, if any
 * (its transaction `id` and `request_hash`), one lateral lookup per movement.
 */
function priorCtes(keys: readonly Omit<PriorKeys, "operator">[]) {
  const asked = {
    userId: sql.ref("asked.user_id"),
    externalId: sql.ref("asked.external_id"),
    idempotencyKey: sql.ref("asked.key"),
  };
  return sql`asked as (
        select * from unnest(
          ${keys.map((key) => key.userId)}::bigint[],
          ${keys.map((key) => key.externalId)}::text[],
          ${keys.map((key) => key.idempotencyKey)}::text[]
        ) with ordinality as asked(user_id, external_id, key, n)
      ),
      prior as materialized (
        select asked.n, found.id, found.request_hash
        from asked cross join lateral (
          select id, request_hash from (${priorCandidates(asked, false)}) as candidates
          order by id limit 1
        ) as found
      )`;
}

/** A prior request found for the `n`th keys asked (from 1): its transaction id and fingerprint. */
export type FoundPrior = [n: number, id: string, requestHash: string | null];

/** A row of `setBoundsFindPriorsAndLockWallets`: the priors found beside one locked wallet. */
export type PriorsAndWalletRow = { priors: FoundPrior[] | null } & (
  | (WalletRow & Partial<WalletVersionColumns>)
  | { [column in keyof WalletRow]: null }
);

/**
 * The bounds, the prior requests each of `keys` names, and the row locks of the wallets `numbers`
 * name (in id order, as `findWalletsByNumber` takes them) with their rows' versions (wallet/wallet-store.ts,
 * `WalletVersions`), in ONE statement (`purse_bounds_wallets`):
 * movements that know their wallets before they start (transfers, alone or in a batch:
 * ledger/movement-batch.ts) need no round trip of their own for them, and a batch's wallets are
 * all locked in one id order, so two batches never wait on each other crosswise.
 *
 * Order matters and is fixed by the plan, not left to chance: the locking scan is gated by a
 * one-time filter on the `bounds` CTE, which PostgreSQL evaluates before the scan reads its first
 * row, so `lock_timeout` is already set when a lock is waited for (tested: a held wallet row ends
 * in SERVICE_BUSY within the bound). `statement_timeout` applies from the next statement on.
 * Every row carries the priors found (null for none); with no wallet found there is one row of nulls.
 */
export async function setBoundsFindPriorsAndLockWallets(
  tx: SqlRunner,
  boundMs: number,
  keys: readonly Omit<PriorKeys, "operator">[],
  numbers: readonly string[],
): Promise<PriorsAndWalletRow[]> {
  return rows(
    tx,
    sql<PriorsAndWalletRow>`
      with bounds as materialized (select ${boundSettings(boundMs)}),
      ${priorCtes(keys)},
      locked as materialized (
        ${selectVersionedWallets}
        where w.number = any(${[...numbers]}::text[])
          and (select lock_timeout from bounds) is not null
        order by w.id for no key update of w
      )
      select (select json_agg(json_build_array(prior.n, prior.id::text, prior.request_hash)) from prior) as priors,
        locked.*
      from (select 1) as one
      left join locked on true`,
    "purse_bounds_wallets",
  );
}

/**
 * `setBoundsFindPriorsAndLockWallets` on Citus (persistence/citus-routing.ts), which runs neither
 * the lateral lookups nor a row lock over several shards: the bounds sent ahead, each movement's
 * prior request looked up by its own statement (each names its user, so goes to one shard), then
 * the wallets locked by owner in id order (wallet/wallet-store.ts, `lockWalletsByNumberOnCitus`).
 * The same rows as the one statement answers.
 */
export async function setBoundsFindPriorsAndLockWalletsOnCitus(
  tx: SqlRunner,
  boundMs: number,
  keys: readonly Omit<PriorKeys, "operator">[],
  numbers: readonly string[],
): Promise<PriorsAndWalletRow[]> {
  await setBounds(tx, boundMs);
  const asked = keys.flatMap((key, index) =>
    key.externalId === null && key.idempotencyKey === null ? [] : [{ key, n: index + 1 }],
  );
  const found = await rowsEach(
    tx,
    asked.map(({ key }) => ({
      query: sql<PriorRequest>`select id, request_hash from (${priorCandidates(key, false)}) as found
        order by id limit 1`,
      prepareAs: "purse_prior_by_user",
    })),
  );
  const priors: FoundPrior[] = [];
  for (const [index, { n }] of asked.entries()) {
    const prior = found[index]?.[0];
    if (prior?.id != null) priors.push([n, String(prior.id), prior.request_hash]);
  }
  const locked = await lockWalletsByNumberOnCitus(tx, numbers);
  const none = priors.length === 0 ? null : priors;
  if (locked.length === 0) return [{ priors: none } as PriorsAndWalletRow];
  return locked.map((row) => ({ ...row, priors: none }));
}

/** A wallet as a movement decided on it without reading it (ledger/wallet-memory.ts). */
export interface ForeseenWallet {
  readonly id: number;
  readonly balanceMinor: bigint;
  readonly versions: WalletVersions;
}

/**
 * The CTEs that let a batch decided on remembered wallets write in its transaction's one statement
 * (ledger/ledger-write-store.ts, `purse_record_foreseen_movements`): `held` locks the wallets
 * `expected` names in id order, as `purse_bounds_wallets` does, each marked `current` when its
 * three rows are the versions the batch decided on (and its balance the one it assumed); `guard`
 * has `passed` true only when every wallet is current and none of `keys` names a prior request
 * (`prior`, as in `purse_bounds_wallets`). The ledger write's rows are gated on `passed`:
 * otherwise the statement writes nothing and answers the wallets that were not current and the
 * priors found.
 *
 * Every write of the statement reads its rows through the gate, whose one-time filter evaluates
 * `guard`, hence `held`, before the first row is written: the locks come first, in id order.
 * The bounds were sent ahead (`setBounds`), with the batch's lock wait as lock_timeout.
 */
export function foreseenGuardCtes(
  expected: readonly ForeseenWallet[],
  keys: readonly Omit<PriorKeys, "operator">[],
) {
  return sql`held as materialized (
        select w.id, (w.xmin = e.wallet_version::xid and u.xmin = e.owner_version::xid
          and c.xmin = e.currency_version::xid and w.balance_minor = e.balance_minor) as current
        from unnest(
          ${expected.map((wallet) => wallet.id)}::bigint[],
          ${expected.map((wallet) => wallet.versions.wallet)}::text[],
          ${expected.map((wallet) => wallet.versions.owner)}::text[],
          ${expected.map((wallet) => wallet.versions.currency)}::text[],
          ${expected.map((wallet) => wallet.balanceMinor.toString())}::bigint[]
        ) as e(id, wallet_version, owner_version, currency_version, balance_minor)
        join wallets w on w.id = e.id
        join users u on u.id = w.user_id
        join currencies c on c.id = w.currency_id
        order by w.id for no key update of w
      ), ${priorCtes(keys)}, guard as materialized (
        select (select count(*) filter (where current) from held) = ${expected.length}
          and not exists (select from prior) as passed
      )`;
}
