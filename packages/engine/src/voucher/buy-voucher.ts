import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { isUserBlocked } from "../auth/user-store.ts";
import type { CallContext } from "../declaration/declare-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import { runMovement } from "../ledger/run-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { checkVoucherPurchase, purchasedType, VoucherStatus, voucherLifetimeMs } from "./index.ts";
import { findPurchasedVoucher, type PurchasedVoucherView } from "./purchased-vouchers.ts";
import { newVoucherCredentials, sealVoucherCode } from "./voucher-code.ts";
import { insertVoucher } from "./voucher-store.ts";

/** A purchase as its contract (`voucherPurchaseContract`) reads it: the amount a positive decimal, normalised. */
export interface BuyVoucherInput {
  readonly walletFrom: string;
  readonly amount: string;
  readonly additional?: string | null;
  /** The `Idempotency-Key` header: a retry with the same key answers the first purchase again. */
  readonly idempotencyKey?: string | null;
}

/**
 * Buys a voucher from one of the caller's USD wallets: the amount leaves the wallet for the voucher
 * account, where it waits until the voucher is activated (activation pays from there, less the
 * voucher commission) or closed. The voucher is pending (status 0), its purchase completed
 * (transaction status 3), valid 30 days, of the type the caller's role buys; the other role
 * activates it. Runs through the movement pipeline: rate limit, route lock, idempotency, one
 * transaction with the wallet row locked.
 */
export async function buyVoucher(
  deps: EngineDependencies,
  actor: Actor,
  input: BuyVoucherInput,
  call: Pick<CallContext, "replayed"> = {},
): Promise<PurchasedVoucherView> {
  requireAccess(actor);
  const { walletFrom: walletNumber, amount } = input;
  const additional = input.additional || "";
  const idempotencyKey = input.idempotencyKey || null;
  const fingerprint = sha256Hex(JSON.stringify(["voucher-purchase", walletNumber, amount, additional]));
  const purchaseId = await runMovement(deps, {
    operation: "voucher-purchase",
    rateLimitKeys: [actor.userId],
    lock: { owner: actor.userId, fingerprint },
    idempotency: {
      keys: { userId: actor.userId, externalId: null, idempotencyKey, fingerprint },
      replay: (transactionId) => transactionId,
      replayed: call.replayed,
    },
    async move(em) {
      const buyerBlocked = await isUserBlocked(em, actor.userId);
      const wallets = await findWalletsByNumber(em, [walletNumber], { lock: true });
      const { wallet, amountMinor } = checkVoucherPurchase({
        buyer: { userId: actor.userId, blocked: buyerBlocked ?? true },
        walletFrom: wallets.get(walletNumber) ?? null,
        amount,
      });
      // A new number on every attempt: a (very unlikely) taken number is a unique-key race, retried.
      const { number, code } = newVoucherCredentials();
      const purchase = await recordMovement(em, {
        userId: actor.userId,
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
        label: "Voucher purchase",
        walletFromId: wallet.id,
        walletToId: null,
        currencyId: wallet.currency.id,
        amountMinor,
        commissionMinor: 0n,
        amountFromMinor: amountMinor,
        amountToMinor: amountMinor,
        description: `Voucher ${number}`,
        additional,
        idempotencyKey,
        requestHash: fingerprint,
        legs: [
          { account: "wallet", walletId: wallet.id, amountMinor: -amountMinor },
          { account: "voucher", amountMinor },
        ],
        events: [
          {
            userId: actor.userId,
            type: "voucher.purchased",
            data: {
              voucher: number,
              wallet: wallet.number,
              currency: wallet.currency.code,
              amount: formatMinor(amountMinor, wallet.currency.precession),
              commission: formatMinor(0n, wallet.currency.precession),
            },
          },
        ],
      });
      await insertVoucher(
        em,
        {
          number,
          code: { codeSealed: sealVoucherCode(deps.secretBox, number, code), codeHash: null },
          currencyId: wallet.currency.id,
          amountMinor,
          type: purchasedType(actor.role),
          status: VoucherStatus.PENDING,
          expiresAt: new Date(deps.now().getTime() + voucherLifetimeMs),
          creatorUserId: actor.userId,
        },
        purchase.id,
      );
      return {
        result: purchase.id,
        change: {
          transactionId: purchase.id,
          userIds: [actor.userId],
          type: TransactionType.TRANSFER,
          status: TransactionStatus.SUCCESS,
        },
      };
    },
  });
  const voucher = await findPurchasedVoucher(
    deps.db.em(),
    deps.secretBox,
    actor.userId,
    purchaseId,
    deps.now(),
  );
  // A replayed key whose transaction bought no voucher (a transfer's, say) is another request.
  if (!voucher) throw new PurseError("ORDER_ID_NOT_UNIQUE");
  return voucher;
}
