import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { userIdByLogin } from "../auth/user-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { checkoutLinkBinding } from "../keys/sealed-columns.ts";
import { transactionStatusName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { type CheckoutListRow, findCheckoutList } from "./checkout-list-store.ts";

/** What a merchant sees of one of its checkouts, to reconcile its orders. */
export interface CheckoutListItem {
  /** The merchant's order id (`id` when the link was created). */
  readonly paymentId: string;
  readonly userInfo: string;
  /** PENDING (link still open), SUCCESS (paid), CANCEL (payer cancelled), FAIL (expired unpaid). */
  readonly status: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL";
  readonly amount: string;
  readonly commission: string;
  readonly currency: string;
  readonly walletFrom: string;
  readonly walletTo: string;
  /** The outcome's transaction (absent while pending). */
  readonly transactionId: number | null;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly createdAt: string;
  readonly expiredAt: string;
  readonly completedAt: string | null;
  /**
   * The payment link (`<payUrl>/<token>`) while the checkout is open (PENDING, not yet expired), to
   * send the payer again; null once it is paid, cancelled or expired, for an operator's listing, and
   * for checkouts created before Purse kept their links (migration 0018).
   */
  readonly url: string | null;
  /** What was refunded of a paid checkout (migration 0016); null unless it was paid. */
  readonly refunded: string | null;
}

export interface CheckoutListFilter {
  readonly status?: string | null;
  readonly limit?: number | null;
  /** Only checkouts created before this one's order id (paging back, newest first). */
  readonly paymentId?: string | null;
}

const statuses = { PENDING: 1, FAIL: 2, SUCCESS: 3, CANCEL: 4 } as const;
export const maxCheckoutListLimit = 100;

/** The caller's checkouts, newest first (the merchant's `checkouts` query). */
export async function listCheckouts(
  deps: EngineDependencies,
  actor: Actor,
  filter: CheckoutListFilter = {},
): Promise<CheckoutListItem[]> {
  requireAccess(actor);
  return checkoutsOf(deps.db, { userId: actor.userId }, filter, openLink(deps));
}

/**
 * One of the caller's checkouts by its order id (`id` when the link was created), as the list
 * shows it: what a merchant's order page asks after the payer comes back. Another merchant's order
 * id, or one never used, is Not found.
 */
export async function showCheckout(
  deps: EngineDependencies,
  actor: Actor,
  paymentId: string,
): Promise<CheckoutListItem> {
  requireAccess(actor);
  const [found] = await checkoutsOf(
    deps.db,
    { userId: actor.userId },
    { limit: 1 },
    openLink(deps),
    paymentId,
  );
  if (!found) throw new PurseError("NOT_FOUND");
  return found;
}

/** The payment link of an open checkout (PENDING, not expired): only the merchant's own reads open one. */
function openLink(deps: EngineDependencies): (row: CheckoutListRow) => string | null {
  const now = deps.now();
  return (row) =>
    row.link_sealed !== null && Number(row.status) === statuses.PENDING && new Date(row.expired_at) > now
      ? `${deps.options.payUrl}/${deps.secretBox.open(row.link_sealed, checkoutLinkBinding(row.token_hash))}`
      : null;
}

/** Operators: the checkouts of one user by login (`purse checkouts list`). */
export async function listCheckoutsOfLogin(
  db: Database,
  login: string,
  filter: CheckoutListFilter = {},
): Promise<CheckoutListItem[]> {
  // An unknown login is an operator's typo, not a merchant without checkouts.
  return checkoutsOf(db, { userId: await userIdByLogin(db, login) }, filter);
}

async function checkoutsOf(
  db: Database,
  owner: { userId: number } | { login: string },
  filter: CheckoutListFilter,
  link: (row: CheckoutListRow) => string | null = () => null,
  paymentId?: string,
): Promise<CheckoutListItem[]> {
  const status = filter.status ? statusCode(filter.status) : null;
  const limit = filter.limit ?? 50;
  // Refused, not clamped: a caller asking for 1 000 should learn it gets at most 100.
  if (!Number.isInteger(limit) || limit < 1 || limit > maxCheckoutListLimit)
    throw new PurseError("OUT_OF_RANGE", "limit", { min: 1, max: maxCheckoutListLimit });
  const found = await db.read((em) =>
    findCheckoutList(em, {
      owner,
      status,
      beforePaymentId: filter.paymentId,
      ...(paymentId === undefined ? {} : { paymentId }),
      limit,
    }),
  );
  return found.map((row) => {
    const precession = Number(row.precession);
    const code = Number(row.status);
    return {
      paymentId: row.payment_id,
      userInfo: row.user_info,
      status: transactionStatusName(code),
      amount: formatMinor(toBigInt(row.amount_minor), precession),
      // What the merchant was charged: nothing unless the checkout was paid.
      commission: formatMinor(code === statuses.SUCCESS ? toBigInt(row.commission_minor) : 0n, precession),
      currency: row.code,
      walletFrom: row.wallet_from,
      walletTo: row.wallet_to,
      transactionId: row.transaction_id === null ? null : toId(row.transaction_id),
      createdAt: formatTimestamp(row.created_at),
      expiredAt: formatTimestamp(row.expired_at),
      completedAt: row.completed_at === null ? null : formatTimestamp(row.completed_at),
      url: link(row),
      refunded: row.refunded_minor === null ? null : formatMinor(toBigInt(row.refunded_minor), precession),
    };
  });
}

function statusCode(name: string): number {
  const code = statuses[name.toUpperCase() as keyof typeof statuses];
  if (code === undefined) throw new PurseError("INVALID_VALUE", "status");
  return code;
}
