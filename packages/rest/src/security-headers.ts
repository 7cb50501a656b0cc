import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

export interface SecurityHeadersOptions {
  /** NODE_ENV=production: also tell browsers to use https only (HSTS). */
  readonly production: boolean;
}

/**
 * Headers every answer of the server carries (REST, GraphQL, tRPC, the hosted page, health):
 * no framing (`X-Frame-Options: DENY`), no referrer (the page's address holds the checkout
 * token), no MIME sniffing. No Content-Security-Policy by default: the API reference and the
 * GraphQL IDE bring their own scripts; the hosted page sets its own strict one per route.
 * Register on the host before any route, so every route, the 404 included, gets them.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeadersOptions,
): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: options.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}
