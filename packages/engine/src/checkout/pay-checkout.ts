import { findStoredPassword } from "../auth/user-store.ts";
import { verifyUserPassword } from "../auth/verify-user-password.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import { runMovement } from "../ledger/run-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { engineFor } from "../mode/engine-for.ts";
import { clockedFor } from "../mode/test-clock.ts";
import { checkFunds, checkOperationLimits, checkWalletPair } from "../payment/index.ts";
import { type SqlRunner, toId } from "../persistence/sql.ts";
import { limitPayerSignIn } from "../rate-limit/abuse-limits.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { type CheckoutRecord, findCheckoutByToken } from "./checkout-store.ts";
import { closeUnpaid, completeCheckout, externalIdFor } from "./complete-checkout.ts";

/** The hosted page's call as its contract (`checkoutPaymentContract`) reads it: texts trimmed, none blank. */
export interface PayCheckoutInput {
  readonly token: string;
  readonly login: string;
  readonly password: string;
  readonly captcha?: string | null;
  readonly action: "pay" | "cancel";
  /** The payer's address: sign-in attempts are limited per (login, address). */
  readonly clientAddress?: string | null;
}

export interface PayCheckoutResult {
  readonly status: "SUCCESS" | "CANCEL";
  readonly transactionId: number;
  /** Where the payer's browser goes next: success_url or cancel_url (may be empty). */
  readonly redirectUrl: string;
}

/** Labels by the receiver's role (spec: merchant "Deposit of funds", partner "Sell Funds"). */
const labels = { merchant: "Deposit", partner: "Sell Funds" } as const;

/**
 * The hosted page's pay or cancel. The payer signs in as the owner of `wallet_from`. Paying is
 * one database transaction: payer debited, merchant credited amount − commission, fee posted,
 * checkout completed and the webhook written to the outbox. Cancelling moves no money.
 */
export async function payCheckout(
  live: EngineDependencies,
  input: PayCheckoutInput,
): Promise<PayCheckoutResult> {
  const { token, login, password, action } = input;
  const deps = await checkoutEngine(live, token);
  // Before the captcha and the password hash; per address, so nobody else can lock the payer out.
  await limitPayerSignIn(deps, login, input.clientAddress);
  return runMovement(deps, {
    operation: "pay",
    async check() {
      if (!(await deps.captcha.verify(input.captcha))) throw new PurseError("CAPTCHA_INVALID", "captcha");
      const checkout = await findCheckoutByToken(deps.db.em(), token, { lock: false });
      if (!checkout) throw new PurseError("NOT_FOUND");
      await checkPayer(deps, checkout, login, password);
      return checkout;
    },
    // One outcome per link: the lock is the checkout's, whoever calls.
    lock: (checkout) => ({ owner: checkout.id, fingerprint: "" }),
    async move(em, checkout) {
      const current = await findCheckoutByToken(em, token, { lock: true });
      // Expired unpaid and already closed by the sweep (FAIL): still "Payment link expired".
      if (current?.status === TransactionStatus.FAIL) throw new PurseError("CHECKOUT_EXPIRED");
      if (!current || current.status !== TransactionStatus.PENDING) throw new PurseError("HASH_NOT_VALID");
      if (current.expiredAt.getTime() <= deps.now().getTime()) throw new PurseError("CHECKOUT_EXPIRED");
      const result = action === "pay" ? await pay(deps, em, current) : await cancel(deps, em, current);
      return {
        result,
        change: {
          transactionId: result.transactionId,
          userIds: [checkout.merchantUserId, checkout.walletFromOwnerId],
          type: TransactionType.DEPOSIT,
          status: result.status === "SUCCESS" ? TransactionStatus.SUCCESS : TransactionStatus.CANCEL,
        },
      };
    },
  });
}

/** Anyone but the owner of wallet_from, or a wrong password, is `Hash is not valid`. */
async function checkPayer(
  deps: EngineDependencies,
  checkout: CheckoutRecord,
  login: string,
  password: string,
) {
  const user = await findStoredPassword(deps.db.em(), login);
  const valid = await verifyUserPassword(deps, user, password);
  if (!valid || !user || toId(user.id) !== checkout.walletFromOwnerId) throw new PurseError("HASH_NOT_VALID");
}

async function pay(
  deps: EngineDependencies,
  em: SqlRunner,
  checkout: CheckoutRecord,
): Promise<PayCheckoutResult> {
  const wallets = await findWalletsByNumber(em, [checkout.walletFromNumber, checkout.walletToNumber], {
    lock: true,
  });
  const { sender, receiver } = checkWalletPair(
    wallets.get(checkout.walletFromNumber) ?? null,
    wallets.get(checkout.walletToNumber) ?? null,
  );
  const fee = checkout.commissionMinor;
  const credit = checkout.amountMinor - fee;
  checkOperationLimits("checkout", sender.currency, checkout.amountMinor, receiver, credit);
  checkFunds("pay", sender, checkout.amountMinor);
  const recorded = await recordMovement(em, {
    userId: checkout.merchantUserId,
    type: TransactionType.DEPOSIT,
    status: TransactionStatus.SUCCESS,
    label: labels[receiver.ownerRole],
    walletFromId: sender.id,
    walletToId: receiver.id,
    currencyId: sender.currencyId,
    amountMinor: checkout.amountMinor,
    commissionMinor: fee,
    amountFromMinor: checkout.amountMinor,
    amountToMinor: credit,
    externalId: await externalIdFor(em, checkout),
    description: `Checkout ${checkout.paymentId}`,
    legs: [
      { account: "wallet", walletId: sender.id, amountMinor: -checkout.amountMinor },
      { account: "wallet", walletId: receiver.id, amountMinor: credit },
      { account: "fee", amountMinor: fee },
    ],
  });
  await completeCheckout(deps, em, checkout, TransactionStatus.SUCCESS, recorded.id);
  return { status: "SUCCESS", transactionId: recorded.id, redirectUrl: checkout.successUrl };
}

async function cancel(
  deps: EngineDependencies,
  em: SqlRunner,
  checkout: CheckoutRecord,
): Promise<PayCheckoutResult> {
  const transactionId = await closeUnpaid(
    deps,
    em,
    checkout,
    TransactionStatus.CANCEL,
    "Cancelled by the payer",
  );
  return { status: "CANCEL", transactionId, redirectUrl: checkout.cancelUrl };
}

/**
 * The engine a link is paid in: its mode by the link's mark; a test link on its merchant's test
 * clock (its expiry and the payment's time follow that clock).
 */
async function checkoutEngine(live: EngineDependencies, token: string): Promise<EngineDependencies> {
  const engine = engineFor(live, token);
  if (engine.db.mode === "live") return engine;
  const checkout = await engine.db.fresh((em) => findCheckoutByToken(em, token, { lock: false }));
  return checkout ? clockedFor(engine, checkout.merchantUserId) : engine;
}
