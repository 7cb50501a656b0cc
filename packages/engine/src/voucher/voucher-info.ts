import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { isUserBlocked } from "../auth/user-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { splitPayment } from "../payment/index.ts";
import { limitVoucherCheck } from "../rate-limit/abuse-limits.ts";
import { isVoucherActivationEnabled } from "../settings/settings-store.ts";
import { voucherFacts } from "./activate-voucher.ts";
import { checkVoucherRedeemable } from "./index.ts";
import { voucherCodeMatches } from "./voucher-code.ts";
import { findVoucher } from "./voucher-store.ts";

export interface VoucherInfo {
  readonly voucherNumber: string;
  readonly amount: string;
  readonly commission: string;
  /** What activation would credit: amount − commission. */
  readonly amountTo: string;
  readonly currency: string;
  readonly status: number;
  readonly expiredAt: string;
}

/** The call before confirm: the same rules and errors, and the net amount, without moving money. */
export async function getVoucherInfo(
  deps: EngineDependencies,
  actor: Actor,
  input: { readonly voucherNumber: string; readonly voucherCode: string },
): Promise<VoucherInfo> {
  requireAccess(actor);
  // Before the code hash: voucher codes cannot be enumerated faster than the limit.
  await limitVoucherCheck(deps, actor.userId, "info");
  const { voucherNumber, voucherCode } = input;
  const em = deps.db.em();
  const voucher = await findVoucher(em, voucherNumber, { lock: false });
  const codeMatches =
    voucher !== null && (await voucherCodeMatches(deps.secretBox, voucher.number, voucher.code, voucherCode));
  const activatorBlocked = await isUserBlocked(em, actor.userId);
  checkVoucherRedeemable({
    activationEnabled: await isVoucherActivationEnabled(em),
    voucher: voucher && { ...voucherFacts(voucher), codeMatches },
    activator: { userId: actor.userId, role: actor.role, blocked: activatorBlocked ?? true },
    now: deps.now(),
  });
  if (!voucher) throw new Error("unreachable: checkVoucherRedeemable refuses a missing voucher");
  const precession = voucher.currency.precession;
  const split = splitPayment("voucher", voucher.amountMinor, voucher.currency.commission.voucher);
  return {
    voucherNumber: voucher.number,
    amount: formatMinor(voucher.amountMinor, precession),
    commission: formatMinor(split.feeMinor, precession),
    amountTo: formatMinor(split.creditMinor, precession),
    currency: voucher.currency.code,
    status: voucher.status,
    expiredAt: formatTimestamp(voucher.expiredAt),
  };
}
