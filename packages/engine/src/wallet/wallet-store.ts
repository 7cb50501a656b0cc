import type { SqlEntityManager } from "@mikro-orm/sql";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../currency/currency-rows.ts";
import { isDistributed, rowsEach } from "../persistence/citus-routing.ts";
import { PgTransaction } from "../persistence/pg-transaction.ts";
import { rows, type SqlRunner, sql, toBigInt, toId } from "../persistence/sql.ts";
import { type WalletStatusName, walletStatusName } from "./wallet-status.ts";

/** A wallet with what every rule about it needs: owner state and currency policy. */
export interface WalletRecord {
  readonly id: number;
  readonly number: string;
  readonly userId: number;
  readonly status: WalletStatusName;
  readonly balanceMinor: bigint;
  readonly amountLimitMinor: bigint;
  readonly canDeposit: boolean;
  readonly canWithdraw: boolean;
  readonly ownerBlocked: boolean;
  readonly ownerRole: "merchant" | "partner";
  readonly currencyId: number;
  readonly currency: CurrencyRecord;
}

export interface WalletRow extends CurrencyColumns {
  id: string | number;
  number: string;
  user_id: string | number;
  status: number;
  balance_minor: string | number | bigint;
  amount_limit_minor: string | number | bigint;
  can_use_for_deposit_api_out: boolean;
  can_use_for_withdraw_api_out: boolean;
  owner_blocked: boolean;
  owner_role: "merchant" | "partner";
}

const walletColumns = `w.id, w.number, w.user_id, w.status, w.balance_minor, w.amount_limit_minor,
    w.can_use_for_deposit_api_out, w.can_use_for_withdraw_api_out,
    u.blocked as owner_blocked, u.role as owner_role, ${currencyColumns}`;
const walletJoins = `from wallets w
  join users u on u.id = w.user_id
  join currencies c on c.id = w.currency_id`;

/** The columns every wallet query selects: the wallet, its owner's state and its currency's policy. */
export const selectWallets = sql.raw(`select ${walletColumns} ${walletJoins}`);

/**
 * The versions of the three rows a `WalletRecord` is read from: each row's `xmin`, the transaction
 * that wrote that version of it. Any change to the wallet (a balance, a status, a limit), to its
 * owner (blocked) or to its currency's policy writes a new version with another `xmin`; a lock
 * does not. ledger/wallet-memory.ts keeps them to tell, under the row lock, that nothing changed.
 */
export interface WalletVersions {
  readonly wallet: string;
  readonly owner: string;
  readonly currency: string;
}

export interface WalletVersionColumns {
  wallet_version: string;
  owner_version: string;
  currency_version: string;
}

/** `selectWallets` with each row's version (`WalletVersions`). */
export const selectVersionedWallets = sql.raw(
  `select w.xmin::text as wallet_version, u.xmin::text as owner_version, c.xmin::text as currency_version,
    ${walletColumns} ${walletJoins}`,
);

export function walletVersionsFromRow(row: WalletVersionColumns): WalletVersions {
  return { wallet: row.wallet_version, owner: row.owner_version, currency: row.currency_version };
}

/** A wallet row locked on Citus, with its chain's head (`lockOwnedWallets`). */
export type HeldWalletRow = WalletRow & { chain_head: Buffer };

/**
 * Loads wallets by number. With `lock`, takes their row locks in id order, so two movements over
 * the same wallets (in either direction) always queue instead of deadlocking. The lock is FOR NO
 * KEY UPDATE: a movement changes a wallet's balance, never its key, so a row elsewhere that
 * references the wallet (a checkout being created: its foreign key check takes KEY SHARE) neither
 * waits for it nor, taking the two wallets in the other order, deadlocks with it.
 */
export async function findWalletsByNumber(
  em: SqlRunner,
  numbers: readonly string[],
  options: { lock: boolean },
): Promise<Map<string, WalletRecord>> {
  if (options.lock && isDistributed(em)) {
    const locked = await lockWalletsByNumberOnCitus(em, numbers);
    return new Map(locked.map((row) => [row.number, walletFromRow(row)]));
  }
  const found = await rows(
    em,
    sql<WalletRow>`${selectWallets} where w.number = any(${[...numbers]}::text[])
      order by w.id ${options.lock ? sql`for no key update of w` : sql``}`,
    options.lock ? "purse_wallets_lock" : undefined,
  );
  return new Map(found.map((row) => [row.number, walletFromRow(row)]));
}

/**
 * The user who owns the wallet `number`, from `wallet_numbers` (migration 0022: on Citus a
 * reference table, the coordinator's own copy; a wallet's owner never changes), or undefined.
 */
export async function findWalletOwner(runner: SqlRunner, number: string): Promise<number | undefined> {
  const [owner] = await rows(
    runner,
    sql<{ user_id: string }>`select user_id from wallet_numbers where number = ${number}`,
  );
  return owner === undefined ? undefined : toId(owner.user_id);
}

/**
 * On Citus (persistence/citus-routing.ts), the row locks of the wallets `numbers` name: their
 * owners found first (in `wallet_numbers`, no lock: a wallet's owner never changes), then each
 * row locked by its owner and id, one statement per wallet in id order, all in one round trip
 * (`lockOwnedWallets`). Citus locks rows only in a statement routed to one shard.
 */
export async function lockWalletsByNumberOnCitus(
  tx: SqlRunner,
  numbers: readonly string[],
): Promise<HeldWalletRow[]> {
  // `wallet_numbers` (migration 0022) is a reference table there: the coordinator reads its own copy.
  const owners = await rows(
    tx,
    sql<{ id: string | number; user_id: string | number }>`
      select wallet_id as id, user_id from wallet_numbers where number = any(${[...numbers]}::text[])`,
    "purse_wallet_owners",
  );
  return lockOwnedWallets(
    tx,
    owners.map((owner) => ({ id: toId(owner.id), userId: toId(owner.user_id) })),
  );
}

/**
 * On Citus, locks `wallets` (their owners known) in id order, one statement routed to each one's
 * shard, all sent at once; the transaction remembers each one's owner and chain head for its
 * ledger write (ledger/citus-ledger-write-store.ts).
 */
export async function lockOwnedWallets(
  tx: SqlRunner,
  wallets: readonly { id: number; userId: number }[],
): Promise<HeldWalletRow[]> {
  const inOrder = [...wallets].sort((a, b) => a.id - b.id);
  const locked = (
    await rowsEach(
      tx,
      inOrder.map(({ id, userId }) => ({
        query: sql<HeldWalletRow>`select ${sql.raw(walletColumns)}, w.chain_head ${sql.raw(walletJoins)}
          where w.user_id = ${userId}::bigint and w.id = ${id}::bigint for no key update of w`,
        prepareAs: "purse_wallet_lock_owned",
      })),
    )
  ).flat();
  if (tx instanceof PgTransaction)
    for (const row of locked)
      tx.heldWallets.set(toId(row.id), { userId: toId(row.user_id), chainHead: row.chain_head });
  return locked;
}

/**
 * Records who owns a wallet number (migration 0022), before the wallet row is written in the same
 * transaction: on Citus, where `wallet_numbers` is a reference table, its primary key is the one
 * check that a number is unique across owners, and it is how the owner of a number is found.
 */
export async function insertWalletNumber(
  tx: SqlRunner,
  wallet: { number: string; userId: number; walletId: number | string },
): Promise<void> {
  await rows(
    tx,
    sql`insert into wallet_numbers (number, user_id, wallet_id)
      values (${wallet.number}, ${wallet.userId}, ${wallet.walletId})`,
  );
}

export async function findWalletsOfUser(em: SqlEntityManager, userId: number): Promise<WalletRecord[]> {
  const found = await rows(em, sql<WalletRow>`${selectWallets} where w.user_id = ${userId} order by w.id`);
  return found.map(walletFromRow);
}

export function walletFromRow(row: WalletRow): WalletRecord {
  return {
    id: toId(row.id),
    number: row.number,
    userId: toId(row.user_id),
    status: walletStatusName(Number(row.status)),
    balanceMinor: toBigInt(row.balance_minor),
    amountLimitMinor: toBigInt(row.amount_limit_minor),
    canDeposit: row.can_use_for_deposit_api_out,
    canWithdraw: row.can_use_for_withdraw_api_out,
    ownerBlocked: row.owner_blocked,
    ownerRole: row.owner_role,
    currencyId: Number(row.c_id),
    currency: currencyFromRow(row),
  };
}
