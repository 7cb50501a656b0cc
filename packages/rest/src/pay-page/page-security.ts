import type { FastifyHelmetRouteOptions } from "@fastify/helmet";

/**
 * The hosted page's Content-Security-Policy: it handles the payer's login and password, so
 * nothing runs on it but its own two scripts, each carrying this answer's nonce (helmet adds
 * `'nonce-…'` to script-src and style-src). No framing (clickjacking), no `<base>` rewriting, and
 * forms post only to Purse itself. The page never form-posts to the shop: after paying it answers
 * same-origin and the browser then follows the shop's address by itself, so `form-action 'self'`
 * never meets a cross-origin redirect.
 */
export const payPageDirectives = {
  "default-src": ["'none'"],
  "script-src": [],
  "style-src": [],
  // The payer's sign-in and the captcha challenge are fetched from Purse itself.
  "connect-src": ["'self'"],
  "img-src": ["'self'"],
  // The ALTCHA widget solves its proof of work in a worker it creates from a blob: URL.
  "worker-src": ["blob:"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'none'"],
  "object-src": ["'none'"],
} as const satisfies Record<string, readonly string[]>;

export const payPageHelmet: FastifyHelmetRouteOptions = {
  helmet: {
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(
        Object.entries(payPageDirectives).map(([name, sources]) => [name, [...sources]]),
      ),
    },
  },
};
