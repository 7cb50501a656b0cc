import { userIdByLogin } from "../auth/user-store.ts";
import { findCurrencyByCode } from "../currency/currency-store.ts";
import { PurseError } from "../errors/index.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { WalletStatus, type WalletStatusName, walletStatusName } from "../wallet/wallet-status.ts";
import { findClientList, findUserList, findWalletList } from "./admin-list-store.ts";

/** The most rows one call lists; past it, `after` pages on (an operator's list stays bounded). */
export const maxAdminListLimit = 1_000;

/** One page of an operator's list: `more` says whether rows follow the last one. */
export interface AdminListPage<Item> {
  readonly items: Item[];
  readonly more: boolean;
}

export interface AdminListFilter {
  /** At most this many, 1 to maxAdminListLimit (default 50). */
  readonly limit?: number;
  /** Only those whose key (login, number, client_id) sorts after this one: the next page. */
  readonly after?: string;
}

export interface UserListItem {
  readonly id: number;
  readonly login: string;
  readonly name: string;
  readonly role: "merchant" | "partner";
  readonly blocked: boolean;
  readonly wallets: number;
  readonly createdAt: string;
}

export interface WalletListItem {
  readonly number: string;
  readonly user: string;
  readonly currency: string;
  readonly balance: string;
  readonly amountLimit: string;
  readonly status: WalletStatusName;
  readonly createdAt: string;
}

export interface ClientListItem {
  readonly clientId: string;
  readonly user: string;
  readonly createdAt: string;
  /** While a rotation's overlap lasts, when the old credential stops working; null otherwise. */
  readonly secretOverlapUntil: string | null;
  readonly formTokenOverlapUntil: string | null;
  readonly webhookSecretOverlapUntil: string | null;
}

/** Users by login. */
export async function listUsers(
  db: Database,
  filter: AdminListFilter & { role?: "merchant" | "partner" } = {},
): Promise<AdminListPage<UserListItem>> {
  const limit = listLimit(filter.limit);
  const found = await db.read((em) =>
    findUserList(em, { role: filter.role ?? null, after: filter.after ?? null, limit }),
  );
  return page(found, limit, (row) => ({
    id: toId(row.id),
    login: row.login,
    name: row.name,
    role: row.role,
    blocked: row.blocked,
    wallets: Number(row.wallets),
    createdAt: formatTimestamp(row.created_at),
  }));
}

/** Every user's wallets by number, deleted ones included (filter by status to leave them out). */
export async function listAllWallets(
  db: Database,
  filter: AdminListFilter & { login?: string; currency?: string; status?: WalletStatusName } = {},
): Promise<AdminListPage<WalletListItem>> {
  const limit = listLimit(filter.limit);
  const userId = filter.login === undefined ? null : await userIdByLogin(db, filter.login);
  const currencyId = filter.currency === undefined ? null : await currencyIdOf(db, filter.currency);
  const status = filter.status === undefined ? null : WalletStatus[filter.status];
  const found = await db.read((em) =>
    findWalletList(em, { userId, currencyId, status, after: filter.after ?? null, limit }),
  );
  return page(found, limit, (row) => {
    const precession = Number(row.precession);
    return {
      number: row.number,
      user: row.login,
      currency: row.currency,
      balance: formatMinor(toBigInt(row.balance_minor), precession),
      amountLimit: formatMinor(toBigInt(row.amount_limit_minor), precession),
      status: walletStatusName(Number(row.status)),
      createdAt: formatTimestamp(row.created_at),
    };
  });
}

/** API clients by client_id, with the overlaps of rotations still under way. Never a secret. */
export async function listClients(
  db: Database,
  filter: AdminListFilter & { login?: string } = {},
): Promise<AdminListPage<ClientListItem>> {
  const limit = listLimit(filter.limit);
  const userId = filter.login === undefined ? null : await userIdByLogin(db, filter.login);
  const found = await db.read((em) => findClientList(em, { userId, after: filter.after ?? null, limit }));
  const until = (value: Date | string | null) => (value === null ? null : formatTimestamp(value));
  return page(found, limit, (row) => ({
    clientId: row.client_id,
    user: row.login,
    createdAt: formatTimestamp(row.created_at),
    secretOverlapUntil: until(row.secret_overlap_until),
    formTokenOverlapUntil: until(row.form_token_overlap_until),
    webhookSecretOverlapUntil: until(row.webhook_secret_overlap_until),
  }));
}

function listLimit(limit = 50): number {
  // Refused, not clamped: a caller asking for more should learn where the bound is.
  if (!Number.isInteger(limit) || limit < 1 || limit > maxAdminListLimit)
    throw new PurseError("OUT_OF_RANGE", "limit", { min: 1, max: maxAdminListLimit });
  return limit;
}

async function currencyIdOf(db: Database, code: string): Promise<number> {
  const currency = await findCurrencyByCode(db.em(), code);
  if (!currency) throw new PurseError("NOT_FOUND", "currency");
  return currency.id;
}

function page<Row, Item>(found: Row[], limit: number, view: (row: Row) => Item): AdminListPage<Item> {
  return { items: found.slice(0, limit).map(view), more: found.length > limit };
}
