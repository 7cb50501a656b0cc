import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";

/**
 * The operator's lists of users, wallets and API clients (`purse users|wallets|clients list`):
 * keyset pages in the order of each one's unique key, `limit + 1` rows so the caller knows
 * whether more follow. Never a secret column.
 */

export interface UserListRow {
  id: string;
  login: string;
  name: string;
  role: "merchant" | "partner";
  blocked: boolean;
  wallets: string;
  created_at: Date | string;
}

export function findUserList(
  em: SqlEntityManager,
  filter: { role: string | null; after: string | null; limit: number },
): Promise<UserListRow[]> {
  // The page of users first, then their wallets counted by owner: Citus refuses a subquery over
  // a distributed table (wallets) correlated with a reference table's row (users).
  return rows(
    em,
    sql<UserListRow>`
      with page as materialized (
        select u.id, u.login, u.name, u.role, u.blocked, u.created_at
        from users u
        where (${filter.role}::text is null or u.role = ${filter.role})
          and (${filter.after}::text is null or u.login > ${filter.after})
        order by u.login limit ${filter.limit + 1}),
      counts as (
        select w.user_id, count(*) as wallets from wallets w
        where w.user_id in (select id from page) group by w.user_id)
      select p.id, p.login, p.name, p.role, p.blocked, p.created_at, coalesce(c.wallets, 0) as wallets
      from page p left join counts c on c.user_id = p.id
      order by p.login`,
  );
}

export interface WalletListRow {
  number: string;
  login: string;
  currency: string;
  precession: number;
  balance_minor: string;
  amount_limit_minor: string;
  status: number;
  created_at: Date | string;
}

export function findWalletList(
  em: SqlEntityManager,
  filter: {
    userId: number | null;
    currencyId: number | null;
    status: number | null;
    after: string | null;
    limit: number;
  },
): Promise<WalletListRow[]> {
  return rows(
    em,
    sql<WalletListRow>`
      select w.number, u.login, c.code as currency, c.precession,
        w.balance_minor::text as balance_minor, w.amount_limit_minor::text as amount_limit_minor,
        w.status, w.created_at
      from wallets w join users u on u.id = w.user_id join currencies c on c.id = w.currency_id
      where (${filter.userId}::bigint is null or w.user_id = ${filter.userId})
        and (${filter.currencyId}::integer is null or w.currency_id = ${filter.currencyId})
        and (${filter.status}::smallint is null or w.status = ${filter.status})
        and (${filter.after}::text is null or w.number > ${filter.after})
      order by w.number limit ${filter.limit + 1}`,
  );
}

export interface ClientListRow {
  client_id: string;
  login: string;
  created_at: Date | string;
  secret_overlap_until: Date | string | null;
  form_token_overlap_until: Date | string | null;
  webhook_secret_overlap_until: Date | string | null;
}

export function findClientList(
  em: SqlEntityManager,
  filter: { userId: number | null; after: string | null; limit: number },
): Promise<ClientListRow[]> {
  // An overlap is shown while it lasts: the old credential still works until then.
  return rows(
    em,
    sql<ClientListRow>`
      select k.client_id, u.login, k.created_at,
        case when k.previous_secret_until > now() then k.previous_secret_until end as secret_overlap_until,
        case when k.previous_form_token_until > now() then k.previous_form_token_until end
          as form_token_overlap_until,
        case when k.previous_webhook_secret_until > now() then k.previous_webhook_secret_until end
          as webhook_secret_overlap_until
      from clients k join users u on u.id = k.user_id
      where (${filter.userId}::bigint is null or k.user_id = ${filter.userId})
        and (${filter.after}::text is null or k.client_id > ${filter.after})
      order by k.client_id limit ${filter.limit + 1}`,
  );
}
