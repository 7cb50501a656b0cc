import type { EngineDependencies } from "../engine-dependencies.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";

/**
 * Limits on calls that cost something before (or without) knowing the caller: each is checked
 * before the expensive or revealing step (a password or secret hash, a balance check). All share
 * PURSE_RATE_LIMIT_PER_MINUTE and the sliding window of the configured RateLimiter (Redis across
 * processes, in process on the embedded default). docs/security.md lists them.
 */
export const abuseRoutes = {
  /** POST /token, per client id and client address. */
  token: "token",
  /** Checkout creation, per client address, before any lookup. */
  checkoutByAddress: "checkout:address",
  /** Checkout creation, per signing client, before the funds check (a balance oracle otherwise). */
  checkoutByClient: "checkout:client",
  /** Voucher info and confirm, per user, before the voucher code hash (code enumeration). */
  voucherInfo: "voucher:info",
  voucherConfirm: "voucher:confirm",
  /** The hosted page's payer sign-in, per login and address, before the password hash. */
  payerSignIn: "pay:sign-in",
  /** The dashboard's sign-in, per (login, address) and per address, before the password hash. */
  dashboardSignIn: "dashboard:sign-in",
  dashboardSignInByAddress: "dashboard:sign-in:address",
} as const;

export interface TokenRefusal {
  /** Whole seconds until a slot frees (the Retry-After header). */
  readonly retryAfterSeconds: number;
}

/**
 * /token answers RFC 6749's `temporarily_unavailable` with Retry-After, so this one returns the
 * refusal instead of throwing the API's 422. Keyed by (client id, address): a flood from one
 * address cannot lock the client out elsewhere.
 */
export async function limitTokenRequest(
  deps: EngineDependencies,
  clientId: string | null | undefined,
  clientAddress: string,
): Promise<TokenRefusal | null> {
  const verdict = await deps.rateLimiter.attempt(pairKey(clientId ?? "", clientAddress), abuseRoutes.token);
  return verdict.admitted ? null : { retryAfterSeconds: Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)) };
}

/** Checkout creation from one address; doors that do not know the address skip this one. */
export async function limitCheckoutCaller(
  deps: EngineDependencies,
  clientAddress: string | null | undefined,
): Promise<void> {
  if (clientAddress) await deps.rateLimiter.consume(keyPart(clientAddress), abuseRoutes.checkoutByAddress);
}

/** Checkout creation by one client (its signature verified), from any address or door. */
export async function limitCheckoutClient(deps: EngineDependencies, clientId: number): Promise<void> {
  await deps.rateLimiter.consume(clientId, abuseRoutes.checkoutByClient);
}

export async function limitVoucherCheck(
  deps: EngineDependencies,
  userId: number,
  call: "info" | "confirm",
): Promise<void> {
  await deps.rateLimiter.consume(
    userId,
    call === "info" ? abuseRoutes.voucherInfo : abuseRoutes.voucherConfirm,
  );
}

/**
 * The payer's sign-in, per (login, address): wrong passwords from another address never lock
 * the payer out of their own. Without a known address (a door that does not pass one) the login
 * alone is the key.
 */
export async function limitPayerSignIn(
  deps: EngineDependencies,
  login: string,
  clientAddress: string | null | undefined,
): Promise<void> {
  await deps.rateLimiter.consume(pairKey(login, clientAddress ?? "unknown"), abuseRoutes.payerSignIn);
}

/**
 * The dashboard's sign-in. Per (login, address), as the payer's: wrong passwords from elsewhere
 * never lock a merchant out of their own dashboard; and per address alone, so one address cannot
 * try a password against many logins either. Charged before the password hash, in one round trip.
 */
export async function limitDashboardSignIn(
  deps: EngineDependencies,
  login: string,
  clientAddress: string | null | undefined,
): Promise<void> {
  const address = clientAddress ?? "unknown";
  await Promise.all([
    deps.rateLimiter.consume(pairKey(login, address), abuseRoutes.dashboardSignIn),
    deps.rateLimiter.consume(keyPart(address), abuseRoutes.dashboardSignInByAddress),
  ]);
}

/** Caller-chosen text becomes part of a Redis key: bounded and free of separators. */
function keyPart(text: string): string {
  return /^[\w.:@-]{1,64}$/.test(text) ? text : `h.${sha256Hex(text).slice(0, 32)}`;
}

function pairKey(first: string, second: string): string {
  return `${keyPart(first)}|${keyPart(second)}`;
}
