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
import { checkOperationLimits, splitPayment } from "../payment/index.ts";
import { limitVoucherCheck } from "../rate-limit/abuse-limits.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";
import { isVoucherActivationEnabled } from "../settings/settings-store.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { checkVoucherActivation } from "./index.ts";
import { voucherCodeMatches } from "./voucher-code.ts";
import { findVoucher, markVoucherActivated, type VoucherRecord } from "./voucher-store.ts";

/** An activation as its contract (`voucherActivationContract`) reads it: texts trimmed, none blank. */
export interface VoucherActivationInput {
  readonly voucherNumber: string;
  readonly voucherCode: string;
  readonly walletTo: string;
  readonly additional?: string | null;
  /** The `Idempotency-Key` header: a retry with the same key answers the first activation again. */
  readonly idempotencyKey?: string | null;
}

export interface VoucherActivation {
  readonly message: string;
  readonly transactionId: number;
}

export const voucherActivated = "Voucher activated successfully";

/**
 * Activates a voucher into one of the caller's USD wallets: the voucher's value, less the voucher
 * commission, leaves the voucher account for the wallet. The voucher row is locked for the whole
 * transaction, so of two simultaneous confirms exactly one wins and the other sees it closed; two
 * confirms racing with one Idempotency-Key leave one movement (the pipeline's unique-race retry).
 */
export async function activateVoucher(
  deps: EngineDependencies,
  actor: Actor,
  input: VoucherActivationInput,
  call: Pick<CallContext, "replayed"> = {},
): Promise<VoucherActivation> {
  requireAccess(actor);
  // Before the code hash: voucher codes cannot be enumerated faster than the limit.
  await limitVoucherCheck(deps, actor.userId, "confirm");
  const { voucherNumber, voucherCode, walletTo: walletNumber } = input;
  const idempotencyKey = input.idempotencyKey || null;
  const additional = input.additional || "";
  const fingerprint = sha256Hex(JSON.stringify([voucherNumber, walletNumber]));
  return runMovement(deps, {
    operation: "voucher-activation",
    lock: { owner: actor.userId, fingerprint: voucherNumber },
    // Checked before any lock is taken: codes of older vouchers are slow hashes.
    check: () => givenCodeMatches(deps, voucherNumber, voucherCode),
    idempotency: {
      keys: { userId: actor.userId, externalId: null, idempotencyKey, fingerprint },
      replay: (transactionId) => ({ message: voucherActivated, transactionId }),
      replayed: call.replayed,
    },
    async move(em, codeMatches) {
      const enabled = await isVoucherActivationEnabled(em);
      const voucher = await findVoucher(em, voucherNumber, { lock: true });
      const wallet =
        (await findWalletsByNumber(em, [walletNumber], { lock: true })).get(walletNumber) ?? null;
      const activatorBlocked = await isUserBlocked(em, actor.userId);
      checkVoucherActivation({
        activationEnabled: enabled,
        voucher: voucher && { ...voucherFacts(voucher), codeMatches },
        activator: { userId: actor.userId, role: actor.role, blocked: activatorBlocked ?? true },
        walletTo: wallet && {
          userId: wallet.userId,
          status: wallet.status,
          currencyCode: wallet.currency.code,
        },
        now: deps.now(),
      });
      if (!voucher || !wallet) throw new PurseError("VOUCHER_INVALID");
      const split = splitPayment("voucher", voucher.amountMinor, voucher.currency.commission.voucher);
      checkOperationLimits("voucher", wallet.currency, voucher.amountMinor, wallet, split.creditMinor);
      const recorded = await recordMovement(em, {
        userId: actor.userId,
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
        label: "Voucher activation",
        walletFromId: null,
        walletToId: wallet.id,
        currencyId: voucher.currency.id,
        amountMinor: voucher.amountMinor,
        commissionMinor: split.feeMinor,
        amountFromMinor: split.debitMinor,
        amountToMinor: split.creditMinor,
        description: `Voucher ${voucher.number}`,
        additional,
        idempotencyKey,
        requestHash: fingerprint,
        legs: [
          { account: "voucher", amountMinor: -split.debitMinor },
          { account: "wallet", walletId: wallet.id, amountMinor: split.creditMinor },
          { account: "fee", amountMinor: split.feeMinor },
        ],
        events: [
          {
            userId: actor.userId,
            type: "voucher.activated",
            data: {
              voucher: voucher.number,
              wallet: wallet.number,
              currency: voucher.currency.code,
              amount: formatMinor(split.creditMinor, voucher.currency.precession),
            },
          },
        ],
      });
      await markVoucherActivated(em, voucher.id, recorded.id, actor.userId);
      return {
        result: { message: voucherActivated, transactionId: recorded.id },
        change: {
          transactionId: recorded.id,
          userIds: [actor.userId],
          type: TransactionType.TRANSFER,
          status: TransactionStatus.SUCCESS,
        },
      };
    },
  });
}

async function givenCodeMatches(deps: EngineDependencies, number: string, code: string): Promise<boolean> {
  const voucher = await findVoucher(deps.db.em(), number, { lock: false });
  return voucher !== null && (await voucherCodeMatches(deps.secretBox, voucher.number, voucher.code, code));
}

export function voucherFacts(voucher: VoucherRecord) {
  return {
    status: voucher.status,
    type: voucher.type,
    expiredAt: voucher.expiredAt,
    creatorBlocked: voucher.creatorBlocked,
    transactionStatus: voucher.transactionStatus,
    currencyCode: voucher.currency.code,
    amountMinor: voucher.amountMinor,
  };
}
