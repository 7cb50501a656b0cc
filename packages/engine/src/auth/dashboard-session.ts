import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { toId } from "../persistence/sql.ts";
import { limitDashboardSignIn } from "../rate-limit/abuse-limits.ts";
import { generateOpaqueToken, hashOpaqueToken } from "../secrets/index.ts";
import { insertAccessToken } from "./credential-store.ts";
import { apiScope, revokeToken } from "./issue-token.ts";
import { findStoredPassword, findUser } from "./user-store.ts";
import { verifyUserPassword } from "./verify-user-password.ts";

/** The name of the dashboard's session cookie (HttpOnly, SameSite=Strict, Path=/). */
export const sessionCookieName = "purse_session";

/**
 * The header a cookie-authenticated request must carry (any value). A page of another origin can
 * only add it to a request after a CORS preflight, which Purse never grants with credentials, so
 * a request that both carries the cookie and this header comes from Purse's own pages.
 */
export const csrfHeaderName = "x-purse-csrf";

export interface SignInInput {
  readonly login?: string | null;
  readonly password?: string | null;
  readonly clientAddress?: string | null;
}

export interface DashboardSession {
  /** The cookie's value: shown once, stored only as its SHA-256. */
  readonly token: string;
  readonly login: string;
  readonly name: string;
  /** When the session ends (`YYYY-MM-DD HH:MM:SS`, UTC), also the cookie's expiry. */
  readonly expiresAt: string;
  readonly expires: Date;
}

/** Logins and passwords longer than this are refused before any hash is computed. */
const maxCredentialLength = 255;

/**
 * The dashboard's sign-in with a user's login and password (as on the hosted page). A session is
 * an access token the user got by password instead of by client credentials: it is stored hashed
 * in the same table, acts with the same rights, and is verified, cached, expired and revoked
 * (with the revocation broadcast to every process) by the same code, so a revoked session ends a
 * live stream exactly as a revoked token does. It has no API client (`client_id` null).
 */
export async function signIn(deps: EngineDependencies, input: SignInInput): Promise<DashboardSession> {
  const login = input.login ?? "";
  const password = input.password ?? "";
  if (login.length > maxCredentialLength || password.length > maxCredentialLength) {
    throw new PurseError("SIGN_IN_FAILED");
  }
  // Before the password hash: a flood is refused without costing an argon2 computation.
  await limitDashboardSignIn(deps, login, input.clientAddress);
  const em = deps.db.em();
  const stored = login && password ? await findStoredPassword(em, login) : undefined;
  // An unknown login costs the same hash as a known one (verifyUserPassword's decoy).
  const valid = await verifyUserPassword(deps, stored, password);
  const user = stored && valid ? await findUser(em, toId(stored.id)) : undefined;
  if (!user || user.blocked) throw new PurseError("SIGN_IN_FAILED");
  const token = generateOpaqueToken("ses", user.id);
  const expires = new Date(deps.now().getTime() + deps.options.sessionLifetimeSeconds * 1000);
  await insertAccessToken(em, {
    tokenHash: hashOpaqueToken(token),
    clientId: null,
    userId: user.id,
    scope: apiScope,
    expiresAt: expires,
  });
  return { token, login, name: user.name, expiresAt: formatTimestamp(expires), expires };
}

/** Ends a session on the server (every process forgets it at once); an unknown one is no error. */
export async function signOut(deps: EngineDependencies, token: string | null): Promise<void> {
  if (token) await revokeToken(deps, token);
}
