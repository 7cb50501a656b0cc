import type { EngineDependencies } from "../engine-dependencies.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";
import { wholeSeconds } from "./rate-limiter.ts";

/**
 * Limits on calls that cost something before (or without) knowing the caller: each is checked
 * before the expensive or revealing step (a password or secret hash, a balance check). All share
 * PURSE_RATE_LIMIT_PER_MINUTE and the sliding window of the configured RateLimiter (Redis across
 * processes, in process on the embedded default), but for the tokens a client is issued, which
 * have a budget of their own (`tokenRouteLimits`). docs/security.md lists them.
 */
export const abuseRoutes = {
  /** POST /token's flood limit: failed attempts per client id and client address. */
  token: "token",
  /** POST /token: tokens issued per client, from any address (PURSE_TOKEN_RATE_LIMIT_PER_MINUTE). */
  tokenByClient: "token:client",
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
  /** A WebSocket for live updates (GraphQL or tRPC), per client address, before the handshake. */
  liveSocket: "live:socket",
} as const;

export interface TokenRefusal {
  /** Whole seconds until a slot frees (the Retry-After header). */
  readonly retryAfterSeconds: number;
}

/** What a token request that passed both limits owes them once its outcome is known. */
export interface TokenAdmission {
  /** The credentials failed: the call stays a guess against (client id, address) only. */
  failed(): Promise<void>;
  /** A token was issued: the call stays against the client's own budget only. */
  issued(): Promise<void>;
  /** Refused as busy before any judgement: the call is given back to both budgets. */
  withdrawn(): Promise<void>;
}

/** The budget of tokens issued per client (PURSE_TOKEN_RATE_LIMIT_PER_MINUTE), for the limiter's options. */
export function tokenRouteLimits(perMinute: number): Readonly<Record<string, number>> {
  return { [abuseRoutes.tokenByClient]: perMinute };
}

/** What `/token` was sent, as far as its limits care. */
export interface TokenCredentials {
  readonly clientId?: string | null | undefined;
  readonly clientSecret?: string | null | undefined;
}

/**
 * /token's two limits, both charged before the secret's hash (so a refused flood costs no hash,
 * and parallel calls cannot slip past either budget), each given back when the outcome shows the
 * call is not its kind:
 * - the flood limit, per (client id, address), counts failed attempts (PURSE_RATE_LIMIT_PER_MINUTE):
 *   guessing from one address stops there, and never locks the client out from its own address.
 *   A secret this process verified lately (`verifiedSecrets`) is no guess and is not charged, so
 *   a client's own calls in flight never fill it, however slow the hashes; should it fail after
 *   all (rotated meanwhile), it is charged then;
 * - the client's own limit, per client id from any address, counts tokens issued
 *   (PURSE_TOKEN_RATE_LIMIT_PER_MINUTE): a client that asks a token before every call is held to
 *   it, and wrong secrets sent by others never spend it.
 * /token answers RFC 6749's `temporarily_unavailable` with Retry-After, so a refusal is returned
 * instead of throwing the API's 422.
 */
export async function admitTokenRequest(
  deps: EngineDependencies,
  credentials: TokenCredentials,
  clientAddress: string,
): Promise<TokenAdmission | TokenRefusal> {
  const { clientId, clientSecret } = credentials;
  const floodKey = pairKey(clientId ?? "", clientAddress);
  const known =
    clientId && clientSecret
      ? (deps.verifiedSecrets?.recall(clientId, clientSecret) ?? null) !== null
      : false;
  const guesses = known ? null : await deps.rateLimiter.attempt(floodKey, abuseRoutes.token);
  if (guesses && !guesses.admitted) return { retryAfterSeconds: wholeSeconds(guesses.retryAfterMs) };
  const tokens = await deps.rateLimiter.attempt(keyPart(clientId ?? ""), abuseRoutes.tokenByClient);
  if (!tokens.admitted) {
    // Not a guess: it never reached the secret.
    await guesses?.release();
    return { retryAfterSeconds: wholeSeconds(tokens.retryAfterMs) };
  }
  return {
    async failed() {
      await tokens.release();
      if (!guesses) await deps.rateLimiter.attempt(floodKey, abuseRoutes.token);
    },
    issued: async () => guesses?.release(),
    async withdrawn() {
      await tokens.release();
      await guesses?.release();
    },
  };
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

/**
 * A WebSocket opened for live updates, per address, before the handshake completes: a socket
 * holds memory and a subscription on the event bus for as long as it lives, so one address cannot
 * open them without bound. Answers whether the socket may open.
 */
export async function admitLiveSocket(deps: EngineDependencies, clientAddress: string): Promise<boolean> {
  return (await deps.rateLimiter.attempt(keyPart(clientAddress), abuseRoutes.liveSocket)).admitted;
}

/** Caller-chosen text becomes part of a Redis key: bounded and free of separators. */
function keyPart(text: string): string {
  return /^[\w.:@-]{1,64}$/.test(text) ? text : `h.${sha256Hex(text).slice(0, 32)}`;
}

function pairKey(first: string, second: string): string {
  return `${keyPart(first)}|${keyPart(second)}`;
}
