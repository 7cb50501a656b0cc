import type { Decimal } from "../money/index.ts";

export type Operation = "checkout" | "transfer" | "voucher";

export interface CommissionRule {
  readonly percent: Decimal;
  readonly fixedMinor: bigint;
}

/** A currency as the rules see it: limits and amounts in minor units of its precession. */
export interface CurrencyRecord {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  /** Exchange rate as exact decimal text. */
  readonly rate: string;
  readonly icon: string;
  readonly precession: number;
  readonly prefix: string;
  readonly minAmountMinor: bigint;
  readonly maxAmountMinor: bigint;
  readonly enabled: boolean;
  readonly directions: { readonly checkout: boolean; readonly transfer: boolean };
  readonly commission: Readonly<Record<Operation, CommissionRule>>;
}
