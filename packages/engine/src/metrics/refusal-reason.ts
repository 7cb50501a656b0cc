import type { ErrorCode } from "../errors/index.ts";

/**
 * Why a movement was refused, in the few words an operator alerts on. The catalogue code stays
 * beside it as its own label; this groups the codes whose remedy is the same.
 */
export type RefusalReason =
  | "limits"
  | "funds"
  | "locks"
  | "busy"
  | "rate_limit"
  | "blocked"
  | "credentials"
  | "duplicate"
  | "closed"
  | "invalid"
  | "internal";

const reasons: Partial<Record<ErrorCode | "INTERNAL", RefusalReason>> = {
  MIN_AMOUNT: "limits",
  MAX_AMOUNT: "limits",
  OUT_OF_RANGE: "limits",
  INSUFFICIENT_FUNDS: "funds",
  PAY_INSUFFICIENT_FUNDS: "funds",
  OPERATOR_INSUFFICIENT_FUNDS: "funds",
  ROUTE_LOCKED: "locks",
  LOCK_UNAVAILABLE: "locks",
  SERVICE_BUSY: "busy",
  DATABASE_UNAVAILABLE: "busy",
  RATE_LIMITED: "rate_limit",
  SENDER_BLOCKED: "blocked",
  RECIPIENT_BLOCKED: "blocked",
  USER_BLOCKED: "blocked",
  UNAUTHORIZED: "credentials",
  SCOPE_MISSED: "credentials",
  HASH_NOT_VALID: "credentials",
  CAPTCHA_INVALID: "credentials",
  SIGNATURE_NOT_IDENTICAL: "credentials",
  ORDER_ID_NOT_UNIQUE: "duplicate",
  USER_INFO_NOT_UNIQUE: "duplicate",
  OPERATOR_KEY_REUSED: "duplicate",
  ALREADY_REVERSED: "duplicate",
  CURRENCY_DISABLED: "closed",
  DIRECTION_INACTIVE: "closed",
  VOUCHER_ACTIVATION_DISABLED: "closed",
  VOUCHER_CLOSED: "closed",
  CHECKOUT_EXPIRED: "closed",
  INTERNAL: "internal",
};

export function refusalReason(code: ErrorCode | "INTERNAL"): RefusalReason {
  return reasons[code] ?? "invalid";
}
