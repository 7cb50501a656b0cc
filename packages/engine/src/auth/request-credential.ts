import { csrfHeaderName, sessionCookieName } from "./dashboard-session.ts";

/** The headers of a request that decide who it acts for (plain text, whatever the HTTP library). */
export interface CredentialHeaders {
  readonly authorization: string | null;
  readonly cookie: string | null;
  /** `x-purse-csrf`. */
  readonly csrf: string | null;
  /** `Sec-Fetch-Site`, which browsers send and pages cannot forge. */
  readonly fetchSite: string | null;
}

/** How a request authenticates: a bearer token, the dashboard's session cookie, or nothing. */
export type RequestCredential =
  | { readonly kind: "bearer"; readonly token: string | null }
  | { readonly kind: "session"; readonly token: string }
  | { readonly kind: "none" };

/** Why a cookie-carrying request is refused before anything runs (HTTP 403 at every door). */
export type CsrfRefusal = "CSRF_HEADER_MISSING" | "CROSS_SITE_REQUEST";

export const csrfRefusalMessages: Record<CsrfRefusal, string> = {
  CSRF_HEADER_MISSING: `A request authenticated by the session cookie must send the ${csrfHeaderName} header.`,
  CROSS_SITE_REQUEST: "A request from another site cannot use the session cookie.",
};

/**
 * The credential of a request. An `Authorization` header wins and the cookie is then ignored
 * (third-party front ends and API clients work as before). A request that relies on the session
 * cookie must prove it comes from Purse's own pages: it carries `x-purse-csrf` (another origin
 * cannot add it without a CORS preflight, and Purse never allows credentials cross-origin) and,
 * where the browser says where it comes from (`Sec-Fetch-Site`), it comes from the same origin.
 * `SameSite=Strict` alone is not enough: another port of the same host is the same site.
 * `requireCsrfHeader: false` is for a plain download link (the CSV export's GET).
 */
export function requestCredential(
  headers: CredentialHeaders,
  options: { readonly requireCsrfHeader: boolean } = { requireCsrfHeader: true },
): { readonly credential: RequestCredential; readonly refusal: CsrfRefusal | null } {
  if (headers.authorization !== null) {
    return { credential: { kind: "bearer", token: bearerToken(headers.authorization) }, refusal: null };
  }
  const session = sessionToken(headers.cookie);
  if (session === null) return { credential: { kind: "none" }, refusal: null };
  const credential = { kind: "session", token: session } as const;
  if (headers.fetchSite !== null && headers.fetchSite !== "same-origin" && headers.fetchSite !== "none") {
    return { credential, refusal: "CROSS_SITE_REQUEST" };
  }
  if (options.requireCsrfHeader && headers.csrf === null)
    return { credential, refusal: "CSRF_HEADER_MISSING" };
  return { credential, refusal: null };
}

/** The token of an `Authorization: Bearer <token>` value (a header, or a WebSocket's connectionParams). */
export function bearerToken(authorization: string): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null;
}

/** The session cookie's value from a `Cookie` header; null when absent, empty or malformed. */
export function sessionToken(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== sessionCookieName) continue;
    const value = pair.slice(separator + 1).trim();
    // Tokens are base64url: anything else is not a session (and never reaches a hash or a query).
    return /^[\w-]{16,128}$/.test(value) ? value : null;
  }
  return null;
}
