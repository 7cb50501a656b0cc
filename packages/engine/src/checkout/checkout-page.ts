import type { EngineDependencies } from "../engine-dependencies.ts";
import { TransactionStatus } from "../ledger/transaction-codes.ts";
import { engineFor } from "../mode/engine-for.ts";
import { clockedFor } from "../mode/test-clock.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { findCheckoutByToken } from "./checkout-store.ts";

export type CheckoutPageState = "open" | "expired" | "paid" | "cancelled" | "unknown";

export interface CheckoutPageView {
  readonly state: CheckoutPageState;
  readonly merchantName?: string;
  readonly amount?: string;
  readonly commission?: string;
  /** What the merchant receives: amount − commission. */
  readonly merchantReceives?: string;
  readonly currency?: string;
  readonly currencyPrefix?: string;
  readonly walletFrom?: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly expiresAt?: string;
  readonly expiresAtIso?: string;
  /** A test checkout (contract: "Test mode"): the page says **Test payment**. */
  readonly livemode: boolean;
}

/** What the hosted page shows for a link: the payment, or why it can no longer be paid. */
export async function getCheckoutPage(live: EngineDependencies, token: string): Promise<CheckoutPageView> {
  const engine = engineFor(live, token);
  const livemode = engine.db.mode === "live";
  const checkout = await engine.db.fresh((em) => findCheckoutByToken(em, token, { lock: false }));
  if (!checkout) return { state: "unknown", livemode };
  // A test checkout expires by its merchant's test clock.
  const deps = await clockedFor(engine, checkout.merchantUserId);
  const precession = checkout.currency.precession;
  const details = {
    merchantName: checkout.merchantName,
    amount: formatMinor(checkout.amountMinor, precession),
    commission: formatMinor(checkout.commissionMinor, precession),
    merchantReceives: formatMinor(checkout.amountMinor - checkout.commissionMinor, precession),
    currency: checkout.currency.code,
    currencyPrefix: checkout.currency.prefix,
    walletFrom: checkout.walletFromNumber,
    expiresAt: formatTimestamp(checkout.expiredAt),
    expiresAtIso: checkout.expiredAt.toISOString(),
    livemode,
  };
  if (checkout.status === TransactionStatus.SUCCESS) return { state: "paid", ...details };
  // FAIL is an expired link the sweep has closed and reported to the merchant.
  if (checkout.status === TransactionStatus.FAIL) return { state: "expired", ...details };
  if (checkout.status !== TransactionStatus.PENDING) return { state: "cancelled", ...details };
  if (checkout.expiredAt.getTime() <= deps.now().getTime()) return { state: "expired", ...details };
  return { state: "open", ...details };
}
