import { PurseError } from "../errors/index.ts";
import type { CurrencyPolicy } from "./limits.ts";
import type { PaymentWallet } from "./payment-rules.ts";

/** Test data shared by the operation rules' tests: the demo fixture's USD and two of its wallets. */
export const usd: CurrencyPolicy = {
  id: 1,
  code: "USD",
  precession: 2,
  minAmountMinor: 100n,
  maxAmountMinor: 1_000_000n,
  enabled: true,
  directions: { checkout: true, transfer: true },
  commission: {
    checkout: { percent: { coefficient: 15n, scale: 1 }, fixedMinor: 0n }, // 1.5%
    transfer: { percent: { coefficient: 1n, scale: 0 }, fixedMinor: 10n }, // 1% + 0.10
    voucher: { percent: { coefficient: 2n, scale: 0 }, fixedMinor: 0n }, // 2%
  },
};

export function wallet(overrides: Partial<PaymentWallet> = {}): PaymentWallet {
  return {
    id: 10,
    number: "U100000010",
    userId: 1,
    status: "ACTIVE",
    currencyId: usd.id,
    balanceMinor: 10_000n,
    amountLimitMinor: 100_000n,
    ownerBlocked: false,
    canDeposit: true,
    canWithdraw: true,
    currency: usd,
    ...overrides,
  };
}

export const sender = wallet();
export const receiver = wallet({ id: 20, number: "U100000020", userId: 2 });

/** "ok", or the refusal as "CODE: message" so a test shows both the code and the spec's text. */
export function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    if (PurseError.is(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}
