import type { FastifyInstance } from "fastify";

/**
 * The largest legal checkout: three 2 048-character URLs, a 255-character user_info and short
 * fields, form-encoded (each URL character may take 3 bytes, each non-ASCII character up to 12)
 * or JSON-escaped, fits in 32 KiB. Every other body has at most 255-character free text and fits
 * in 16 KiB. Multipart bodies are bounded by busboy's field limits instead (`body-parsers.ts`).
 */
const checkoutBodyLimit = 32 * 1024;
const defaultBodyLimit = 16 * 1024;
const largeBodies: ReadonlyMap<string, number> = new Map([["/api/processing/checkout", checkoutBodyLimit]]);

/** Sets each route's body limit as it is declared (a route's own `bodyLimit` wins). */
export function limitBodies(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    route.bodyLimit ??= largeBodies.get(route.url) ?? defaultBodyLimit;
  });
}
