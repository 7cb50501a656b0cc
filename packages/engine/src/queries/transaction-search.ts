import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { transactionStatusName, transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor, parseDecimal } from "../money/index.ts";
import { rows, sql, toBigInt, toId } from "../persistence/sql.ts";
import { touchedBy } from "./touched-transactions.ts";

export interface TransactionSearch {
  /** Inclusive bounds, any time zone; omitted means open-ended. */
  readonly from?: Date | null;
  readonly until?: Date | null;
  readonly walletNumber?: string | null;
  readonly type?: "TRANSFER" | "DEPOSIT" | "WITHDRAW" | null;
  readonly status?: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL" | null;
  /** Decimal text, compared exactly in each transaction's own currency. */
  readonly minAmount?: string | null;
  readonly maxAmount?: string | null;
}

export interface TransactionNode {
  readonly id: number;
  readonly externalId: string | null;
  readonly type: "TRANSFER" | "DEPOSIT" | "WITHDRAW";
  readonly status: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL";
  readonly label: string;
  readonly amount: string;
  readonly commission: string;
  readonly amountFrom: string;
  readonly amountTo: string;
  readonly currencyId: number;
  readonly walletFromId: number | null;
  readonly walletToId: number | null;
  readonly description: string;
  readonly createdAt: string;
}

export interface TransactionTotal {
  readonly currencyId: number;
  readonly currency: string;
  readonly count: number;
  readonly amount: string;
  readonly commission: string;
}

export interface TransactionPage {
  readonly nodes: TransactionNode[];
  readonly hasNextPage: boolean;
  readonly totals: TransactionTotal[];
}

const typeCodes = { TRANSFER: 1, DEPOSIT: 2, WITHDRAW: 3 } as const;
const statusCodes = { PENDING: 1, FAIL: 2, SUCCESS: 3, CANCEL: 4 } as const;

/**
 * A dashboard's view of the caller's transactions (merchants only, as history is): filters, a
 * keyset page newest first, and totals per currency over the whole filtered set.
 */
export async function searchTransactions(
  deps: EngineDependencies,
  actor: Actor,
  search: TransactionSearch,
  page: { first: number; afterId?: number | null },
): Promise<TransactionPage> {
  requireAccess(actor, ["merchant"]);
  if (!Number.isInteger(page.first) || page.first < 1 || page.first > 100) {
    throw new PurseError("OUT_OF_RANGE", "first", { min: 1, max: 100 });
  }
  const where = conditions(actor.userId, search);
  const em = deps.db.em();
  const found = await rows(
    em,
    sql<{
      id: string;
      external_id: string | null;
      type: number;
      status: number;
      label: string;
      amount_minor: string;
      commission_minor: string;
      amount_from_minor: string;
      amount_to_minor: string;
      currency_id: number;
      precession: number;
      wallet_from_id: string | null;
      wallet_to_id: string | null;
      description: string;
      created_at: Date | string;
    }>`select t.id, t.external_id, t.type, t.status, t.label, t.amount_minor, t.commission_minor,
        t.amount_from_minor, t.amount_to_minor, t.currency_id, c.precession, t.wallet_from_id, t.wallet_to_id,
        t.description, t.created_at
      ${fromClause} where ${where} ${page.afterId ? sql`and t.id < ${page.afterId}` : sql``}
      order by t.id desc limit ${page.first + 1}`,
  );
  const totals = await rows(
    em,
    sql<{
      currency_id: number;
      code: string;
      precession: number;
      count: string;
      amount: string;
      commission: string;
    }>`
      select c.id as currency_id, c.code, c.precession, count(*) as count,
        coalesce(sum(t.amount_minor), 0)::text as amount, coalesce(sum(t.commission_minor), 0)::text as commission
      ${fromClause} where ${where} group by c.id, c.code, c.precession order by c.code`,
  );
  return {
    nodes: found.slice(0, page.first).map((row) => {
      const precession = Number(row.precession);
      return {
        id: toId(row.id),
        externalId: row.external_id,
        type: transactionTypeName(Number(row.type)),
        status: transactionStatusName(Number(row.status)),
        label: row.label,
        amount: formatMinor(toBigInt(row.amount_minor), precession),
        commission: formatMinor(toBigInt(row.commission_minor), precession),
        amountFrom: formatMinor(toBigInt(row.amount_from_minor), precession),
        amountTo: formatMinor(toBigInt(row.amount_to_minor), precession),
        currencyId: Number(row.currency_id),
        walletFromId: row.wallet_from_id === null ? null : toId(row.wallet_from_id),
        walletToId: row.wallet_to_id === null ? null : toId(row.wallet_to_id),
        description: row.description,
        createdAt: new Date(row.created_at).toISOString(),
      };
    }),
    hasNextPage: found.length > page.first,
    totals: totals.map((row) => ({
      currencyId: Number(row.currency_id),
      currency: row.code,
      count: Number(row.count),
      amount: formatMinor(toBigInt(row.amount), Number(row.precession)),
      commission: formatMinor(toBigInt(row.commission), Number(row.precession)),
    })),
  };
}

const fromClause = sql`
  from transactions t
  join currencies c on c.id = t.currency_id
  left join wallets wf on wf.id = t.wallet_from_id
  left join wallets wt on wt.id = t.wallet_to_id`;

function conditions(userId: number, search: TransactionSearch) {
  const amount = (text: string | null | undefined, field: string) => {
    if (text === null || text === undefined || text === "") return null;
    if (!parseDecimal(text)) throw new PurseError("NOT_NUMERIC", field);
    return text;
  };
  refuseNul(search.walletNumber, "walletNumber");
  const min = amount(search.minAmount, "minAmount");
  const max = amount(search.maxAmount, "maxAmount");
  return sql.join(
    [
      sql`t.id in ${touchedBy(userId, search.from, search.until, true)}`,
      sql`(wf.user_id = ${userId} or wt.user_id = ${userId})`,
      ...(search.from ? [sql`t.created_at >= ${search.from}`] : []),
      ...(search.until ? [sql`t.created_at <= ${search.until}`] : []),
      ...(search.walletNumber
        ? [sql`(wf.number = ${search.walletNumber} or wt.number = ${search.walletNumber})`]
        : []),
      ...(search.type ? [sql`t.type = ${typeCodes[search.type]}`] : []),
      ...(search.status ? [sql`t.status = ${statusCodes[search.status]}`] : []),
      // Exact: numeric division, no float anywhere.
      ...(min ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) >= ${min}::numeric`] : []),
      ...(max ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) <= ${max}::numeric`] : []),
    ],
    sql` and `,
  );
}
