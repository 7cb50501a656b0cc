/**
 * The longest text each kind of input field may carry, on every door. Every input is bounded
 * before any work is done with it (an over-long text is refused on its field); the REST body
 * limits are sized from these.
 */
export const inputBounds = {
  walletNumber: 32,
  /** payment_id, checkout id, external_id */
  identifier: 64,
  idempotencyKey: 255,
  /** description, additional, user_info */
  freeText: 255,
  voucherNumber: 64,
  voucherCode: 64,
  /** SHA-256 hex */
  signature: 64,
  /** Dates, page numbers, codes in query strings */
  queryValue: 32,
  /** Payment link tokens, logins, OAuth fields */
  token: 256,
  password: 1024,
  /** The captcha widget's base64 payload */
  captcha: 4096,
} as const;
