import type { SqlEntityManager } from "@mikro-orm/sql";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../ledger/currency-rows.ts";
import { firstRow, rows, sql, toBigInt, toId } from "../persistence/sql.ts";
import { hashOpaqueToken } from "../secrets/index.ts";

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
  wallet_to_number: string;
  amount_minor: string;
  commission_minor: string;
  success_url: string;
  cancel_url: string;
  status_url: string;
  status: number;
  expired_at: Date | string;
}

const checkoutSelect = sql`
  select k.id, k.merchant_user_id, u.name as merchant_name, k.client_id, k.payment_id,
    k.wallet_from_id, wf.number as wallet_from_number, wf.user_id as wallet_from_owner_id,
    wt.number as wallet_to_number, k.amount_minor, k.commission_minor, k.success_url, k.cancel_url,
    k.status_url, k.status, k.expired_at, ${sql.raw(currencyColumns)}
  from checkouts k
  join users u on u.id = k.merchant_user_id
  join wallets wf on wf.id = k.wallet_from_id
  join wallets wt on wt.id = k.wallet_to_id
  join currencies c on c.id = k.currency_id`;

/** The checkout behind a payment link token; with `lock`, its row is locked (one outcome per link). */
export async function findCheckoutByToken(
  em: SqlEntityManager,
  token: string,
  options: { lock: boolean },
): Promise<CheckoutRecord | null> {
  const row = await firstRow(
    em,
    sql<CheckoutRow>`${checkoutSelect}
      where k.token_hash = ${hashOpaqueToken(token)}
      ${options.lock ? sql`for update of k` : sql``}`,
  );
  return row ? checkoutFromRow(row) : null;
}

/**
 * Pending checkouts whose link has expired, locked for the caller's transaction. Rows another
 * process holds (a sweep, or a payer's last-second attempt) are skipped, not waited for.
 */
export async function lockExpiredCheckouts(
  em: SqlEntityManager,
  now: Date,
  limit: number,
): Promise<CheckoutRecord[]> {
  const found = await rows(
    em,
    sql<CheckoutRow>`${checkoutSelect}
      where k.status = 1 and k.expired_at <= ${now}
      order by k.expired_at, k.id
      limit ${limit}
      for update of k skip locked`,
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
