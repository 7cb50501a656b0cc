import type { SqlEntityManager } from "@mikro-orm/sql";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../currency/currency-rows.ts";
import { PurseError } from "../errors/index.ts";
import { isDistributed } from "../persistence/citus-routing.ts";
import {
  firstRow,
  isUniqueViolation,
  rows,
  type SqlRunner,
  sql,
  toBigInt,
  toId,
} from "../persistence/sql.ts";
import { statementNowToWrite } from "../persistence/statement-clock.ts";
import { hashOpaqueToken, opaqueTokenOwner } from "../secrets/index.ts";

/** Checkout status codes share the transaction codes: PENDING 1, FAIL 2, SUCCESS 3, CANCEL 4. */
export interface CheckoutRecord {
  readonly id: number;
  readonly merchantUserId: number;
  readonly merchantName: string;
  readonly clientId: number;
  readonly paymentId: string;
  readonly walletFromId: number;
  readonly walletFromNumber: string;
  readonly walletFromOwnerId: number;
  readonly walletToId: number;
  readonly walletToNumber: string;
  readonly currency: CurrencyRecord;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly statusUrl: string;
  readonly status: number;
  readonly expiredAt: Date;
}

interface CheckoutRow extends CurrencyColumns {
  id: string;
  merchant_user_id: string;
  merchant_name: string;
  client_id: string;
  payment_id: string;
  wallet_from_id: string;
  wallet_from_number: string;
  wallet_from_owner_id: string;
  wallet_to_id: string;
  wallet_to_number: string;
  amount_minor: string;
  commission_minor: string;
  success_url: string;
  cancel_url: string;
  status_url: string;
  status: number;
  expired_at: Date | string;
}

const checkoutColumns = `k.id, k.merchant_user_id, u.name as merchant_name, k.client_id, k.payment_id,
    k.wallet_from_id, wf.number as wallet_from_number, wf.user_id as wallet_from_owner_id,
    k.wallet_to_id, wt.number as wallet_to_number, k.amount_minor, k.commission_minor, k.success_url, k.cancel_url,
    k.status_url, k.status, k.expired_at, ${currencyColumns}`;

/** A checkout with its merchant, currency and two wallets, read from `wallets` (a table or a CTE). */
const checkoutSelectFrom = (wallets: string) => sql`
  select ${sql.raw(checkoutColumns)}
  from checkouts k
  join users u on u.id = k.merchant_user_id
  join ${sql.id(wallets)} wf on wf.id = k.wallet_from_id
  join ${sql.id(wallets)} wt on wt.id = k.wallet_to_id
  join currencies c on c.id = k.currency_id`;

const checkoutSelect = checkoutSelectFrom("wallets");

/**
 * The same on Citus (persistence/citus-routing.ts), which joins a checkout to its two wallets only
 * by repartitioning (the payer's wallet is another owner's): the wallets are read by id first,
 * then joined as values.
 */
async function checkoutSelectOnCitus(em: SqlRunner, token: string) {
  const [wallets] = await rows(
    em,
    sql<{ ids: string[] }>`select array[wallet_from_id, wallet_to_id]::text[] as ids from checkouts
      where token_hash = ${hashOpaqueToken(token)} ${ownerOfLink(token, "merchant_user_id")}`,
  );
  return checkoutSelectOfWallets(wallets?.ids ?? []);
}

/**
 * The link's merchant, when the link carries it (secrets/opaque-token.ts): named beside the hash,
 * so Citus reads the merchant's shard alone. A link made before links carried it finds its
 * checkout by the hash alone, over every shard.
 */
function ownerOfLink(token: string, column: "merchant_user_id" | "k.merchant_user_id") {
  const owner = opaqueTokenOwner(token);
  return owner === undefined ? sql`` : sql`and ${sql.ref(column)} = ${owner}`;
}

/** The checkout select on Citus, its wallets (`walletIds`, read by id) joined as values. */
function checkoutSelectOfWallets(walletIds: readonly string[]) {
  return sql`
  with w as (
    select id, number, user_id from wallets where id = any(${[...walletIds]}::bigint[])
  )
  ${checkoutSelectFrom("w")}`;
}

/** The checkout behind a payment link token; with `lock`, its row is locked (one outcome per link). */
export async function findCheckoutByToken(
  em: SqlRunner,
  token: string,
  options: { lock: boolean },
): Promise<CheckoutRecord | null> {
  if (isDistributed(em)) return findCheckoutByTokenOnCitus(em, token, options);
  const row = await firstRow(
    em,
    sql<CheckoutRow>`${checkoutSelect}
      where k.token_hash = ${hashOpaqueToken(token)} ${ownerOfLink(token, "k.merchant_user_id")}
      ${options.lock ? sql`for no key update of k` : sql``}`,
  );
  return row ? checkoutFromRow(row) : null;
}

/**
 * `findCheckoutByToken` on Citus: the checkout read, then (with `lock`) its row locked by its
 * owner and id (Citus locks rows only in a statement routed to one shard) and read again.
 */
async function findCheckoutByTokenOnCitus(
  em: SqlRunner,
  token: string,
  options: { lock: boolean },
): Promise<CheckoutRecord | null> {
  const read = async () =>
    firstRow(
      em,
      sql<CheckoutRow>`${await checkoutSelectOnCitus(em, token)} where k.token_hash = ${hashOpaqueToken(token)}
        ${ownerOfLink(token, "k.merchant_user_id")}`,
    );
  const row = await read();
  if (!row || !options.lock) return row ? checkoutFromRow(row) : null;
  await rows(
    em,
    sql`select 1 from checkouts where merchant_user_id = ${row.merchant_user_id}::bigint and id = ${row.id}::bigint
      for no key update`,
  );
  const locked = await read();
  return locked ? checkoutFromRow(locked) : null;
}

/**
 * Pending checkouts whose link has expired, locked for the caller's transaction. Rows another
 * process holds (a sweep, or a payer's last-second attempt) are skipped, not waited for.
 */
export async function lockExpiredCheckouts(
  em: SqlEntityManager,
  now: Date,
  limit: number,
  merchantUserId?: number,
): Promise<CheckoutRecord[]> {
  // One merchant's only when a test clock moved (test-mode/advance-test-clock.ts).
  const ofMerchant = merchantUserId === undefined ? sql`` : sql`and k.merchant_user_id = ${merchantUserId}`;
  if (isDistributed(em)) return lockExpiredCheckoutsOnCitus(em, now, limit, ofMerchant);
  const found = await rows(
    em,
    sql<CheckoutRow>`${checkoutSelect}
      where k.status = 1 and k.expired_at <= ${now} ${ofMerchant}
      order by k.expired_at, k.id
      limit ${limit}
      for update of k skip locked`,
  );
  return found.map(checkoutFromRow);
}

/**
 * `lockExpiredCheckouts` on Citus, which locks rows only in a statement routed to one shard: the
 * expired checkouts found first (every shard, no lock), then each merchant's locked by a statement
 * naming the merchant (`SKIP LOCKED`, still pending and expired), then the locked ones read with
 * their wallets, read by id (`checkoutSelectOfWallets`).
 */
async function lockExpiredCheckoutsOnCitus(
  em: SqlRunner,
  now: Date,
  limit: number,
  ofMerchant: ReturnType<typeof sql>,
): Promise<CheckoutRecord[]> {
  const due = await rows(
    em,
    sql<{ id: string; merchant_user_id: string }>`select k.id, k.merchant_user_id from checkouts k
      where k.status = 1 and k.expired_at <= ${now} ${ofMerchant}
      order by k.expired_at, k.id limit ${limit}`,
  );
  const byMerchant = new Map<string, string[]>();
  for (const { id, merchant_user_id } of due)
    byMerchant.set(merchant_user_id, [...(byMerchant.get(merchant_user_id) ?? []), id]);
  const locked: string[] = [];
  for (const [merchant, ids] of byMerchant) {
    const held = await rows(
      em,
      sql<{ id: string }>`select id from checkouts
        where merchant_user_id = ${merchant}::bigint and id = any(${ids}::bigint[])
          and status = 1 and expired_at <= ${now}
        for update skip locked`,
    );
    locked.push(...held.map((row) => row.id));
  }
  if (locked.length === 0) return [];
  const [wallets] = await rows(
    em,
    sql<{
      ids: string[];
    }>`select coalesce(array_agg(wallet_from_id) || array_agg(wallet_to_id), '{}')::text[] as ids
      from checkouts where id = any(${locked}::bigint[]) and merchant_user_id = any(${[...byMerchant.keys()]}::bigint[])`,
  );
  const found = await rows(
    em,
    sql<CheckoutRow>`${checkoutSelectOfWallets(wallets?.ids ?? [])}
      where k.id = any(${locked}::bigint[]) and k.merchant_user_id = any(${[...byMerchant.keys()]}::bigint[])
      order by k.expired_at, k.id`,
  );
  return found.map(checkoutFromRow);
}

function checkoutFromRow(row: CheckoutRow): CheckoutRecord {
  return {
    id: toId(row.id),
    merchantUserId: toId(row.merchant_user_id),
    merchantName: row.merchant_name,
    clientId: toId(row.client_id),
    paymentId: row.payment_id,
    walletFromId: toId(row.wallet_from_id),
    walletFromNumber: row.wallet_from_number,
    walletFromOwnerId: toId(row.wallet_from_owner_id),
    walletToId: toId(row.wallet_to_id),
    walletToNumber: row.wallet_to_number,
    currency: currencyFromRow(row),
    amountMinor: toBigInt(row.amount_minor),
    commissionMinor: toBigInt(row.commission_minor),
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    statusUrl: row.status_url,
    status: Number(row.status),
    expiredAt: new Date(row.expired_at),
  };
}

/** A new checkout's row; the token is stored as its hash (to find it) and sealed (to show it again). */
export interface NewCheckout {
  readonly tokenHash: string;
  /** The token sealed with `checkoutLinkBinding(tokenHash)` (migration 0018). */
  readonly linkSealed: string;
  readonly merchantUserId: number;
  readonly clientId: number;
  readonly paymentId: string;
  readonly userInfo: string;
  readonly walletFromId: number;
  readonly walletToId: number;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
  readonly signature: string;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly statusUrl: string;
  readonly expiresAt: Date;
  /** Its merchant's test clock's time in test mode; null: PostgreSQL's own (live data). */
  readonly createdAt: Date | null;
}

/** Stores a checkout; a payment id or user_info the merchant used before is refused by its unique key. */
export async function insertCheckout(em: SqlEntityManager, checkout: NewCheckout): Promise<void> {
  try {
    await sql`insert into checkouts (token_hash, merchant_user_id, client_id, payment_id, user_info,
        wallet_from_id, wallet_to_id, currency_id, amount_minor, commission_minor, signature,
        success_url, cancel_url, status_url, expired_at, link_sealed, created_at)
      values (${checkout.tokenHash}, ${checkout.merchantUserId}, ${checkout.clientId}, ${checkout.paymentId},
        ${checkout.userInfo}, ${checkout.walletFromId}, ${checkout.walletToId}, ${checkout.currencyId},
        ${checkout.amountMinor.toString()}, ${checkout.commissionMinor.toString()}, ${checkout.signature},
        ${checkout.successUrl}, ${checkout.cancelUrl}, ${checkout.statusUrl}, ${checkout.expiresAt},
        ${checkout.linkSealed}, coalesce(${checkout.createdAt}::timestamptz, now()))`.execute(em.getKysely());
  } catch (error) {
    if (isUniqueViolation(error, "checkouts_merchant_user_id_payment_id_key")) {
      throw new PurseError("ORDER_ID_NOT_UNIQUE", "id");
    }
    if (isUniqueViolation(error, "checkouts_merchant_user_id_user_info_key")) {
      throw new PurseError("USER_INFO_NOT_UNIQUE", "userInfo");
    }
    throw error;
  }
}

/** Records how a checkout ended and the transaction that says so. */
export async function closeCheckout(
  em: SqlRunner,
  checkout: { readonly id: number; readonly merchantUserId: number },
  status: number,
  transactionId: number,
): Promise<void> {
  const completedAt = await statementNowToWrite(em);
  await rows(
    em,
    // A closed checkout's link is never shown again: its sealed copy goes (migration 0018), so only
    // open checkouts hold one and `purse keys rotate` re-seals those alone.
    // The closing transaction's time: a test clock's when one moved (persistence/statement-clock.ts).
    // The merchant named too: on Citus the statement goes to the merchant's shard alone.
    sql`update checkouts set status = ${status}, transaction_id = ${transactionId}, completed_at = ${completedAt},
        link_sealed = null
      where id = ${checkout.id} and merchant_user_id = ${checkout.merchantUserId}`,
  );
}

/** Whether `userId` already has a transaction with this external id. */
export async function externalIdTaken(em: SqlRunner, userId: number, externalId: string): Promise<boolean> {
  const taken = await firstRow(
    em,
    sql<{ id: string }>`select id from transactions
      where user_id = ${userId} and external_id = ${externalId} limit 1`,
  );
  return taken !== undefined;
}

/** A client's sealed form token (the one that signs its checkouts and notifications). */
export interface ClientFormToken {
  readonly id: number;
  readonly clientId: string;
  readonly formTokenSealed: string;
}

export async function findClientFormToken(em: SqlRunner, id: number): Promise<ClientFormToken | undefined> {
  const client = await firstRow(
    em,
    sql<{
      client_id: string;
      form_token_sealed: string;
    }>`select client_id, form_token_sealed from clients where id = ${id}`,
  );
  return client === undefined
    ? undefined
    : { id, clientId: client.client_id, formTokenSealed: client.form_token_sealed };
}

/** Each client's form token of `userId`, and during a rotation's overlap its previous one as well. */
export async function findFormTokensOfUser(em: SqlEntityManager, userId: number): Promise<ClientFormToken[]> {
  const tokens = await rows(
    em,
    sql<{
      id: string;
      client_id: string;
      form_token_sealed: string;
    }>`select id, client_id, form_token_sealed from clients where user_id = ${userId}
      union all
      select id, client_id, previous_form_token_sealed from clients
      where user_id = ${userId} and previous_form_token_until > now()
        and previous_form_token_sealed is not null`,
  );
  return tokens.map((token) => ({
    id: toId(token.id),
    clientId: token.client_id,
    formTokenSealed: token.form_token_sealed,
  }));
}
