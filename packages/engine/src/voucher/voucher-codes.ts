/** Voucher status codes of the spec. */
export const VoucherStatus = { PENDING: 0, ACTIVATED: 1, CLOSED: 2 } as const;
export type VoucherStatusCode = (typeof VoucherStatus)[keyof typeof VoucherStatus];

/** Who bought the voucher: a partner (1) or a merchant (2); each role activates the other's. */
export const VoucherType = { PARTNER_PURCHASED: 1, MERCHANT_PURCHASED: 2 } as const;
export type VoucherTypeCode = (typeof VoucherType)[keyof typeof VoucherType];

/** Rule 7: the voucher's purchase transaction must be completed (transaction status 3). */
export const COMPLETED_PURCHASE_STATUS = 3;

/** Rule 10: vouchers are activated into USD wallets only. */
export const VOUCHER_ACTIVATION_CURRENCY = "USD";
