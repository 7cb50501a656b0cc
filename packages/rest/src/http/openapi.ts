import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { transformObject } from "./openapi-components.ts";

export const openApiPath = "/openapi.json";
export const docsPath = "/docs";
/** Where `npm start` serves by default; the committed openapi.json names it. */
export const defaultPublicUrl = "http://localhost:3000";

export interface OpenApiOptions {
  /** The address clients use (the server's BASE_URL), without a trailing slash. */
  readonly publicUrl?: string;
}

/**
 * OpenAPI 3.1 generated from the routes' zod schemas (the same ones that validate requests),
 * served at /openapi.json, with a reference page at /docs whose script ships in the package
 * (`/docs/js/scalar.js`): no CDN, no web fonts from elsewhere.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      // The reference page's curl lines and generated clients take their host from here.
      servers: [{ url: options.publicUrl ?? defaultPublicUrl, description: "This Purse (BASE_URL)" }],
      info: {
        title: "Purse wallet payment API",
        version: "1.0.0",
        description: [
          "Wallets, checkout links, transfers, vouchers and history.",
          "Send amounts as decimal strings; balances and limits come back as JSON numbers, transaction",
          "detail amounts as decimal strings.",
          'Errors: `{"status": false, "message": "...", "errors": {"<field>": ["..."]}, "translation": "...",',
          '"code": "..."}` (`code`: machine-readable, the same code GraphQL and tRPC give);',
          "a rate-limited call (`Method locked please try again later`) carries `Retry-After`, and a replayed",
          "answer (a repeated Idempotency-Key or payment_id) `Idempotent-Replayed: true`;",
          '`/token` errors follow RFC 6749: `{"error": "invalid_client"}`.',
        ].join(" "),
      },
      tags: [
        { name: "Authentication", description: "Client credentials and bearer tokens" },
        { name: "Checkout", description: "Hosted payment links" },
        { name: "Transfers" },
        { name: "Vouchers" },
        { name: "Transactions" },
        { name: "Wallets" },
        { name: "Currencies" },
        { name: "Users" },
      ],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "Access token from POST /token" },
          clientBasic: {
            type: "http",
            scheme: "basic",
            description: "client_id and client_secret as HTTP Basic (RFC 6749 2.3.1), for POST /token",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject,
  });
  app.get(openApiPath, { schema: { hide: true } }, async () => app.swagger());
  // The reference page's module holds its 4.8 MB browser script as a string: about 19 MB of heap
  // (two copies, two bytes a character) in every process from start to exit, for a page few
  // ever open. It is loaded on the first request to /docs instead, in an app of its own.
  let reference: Promise<FastifyInstance> | undefined;
  const serveReference = async (request: FastifyRequest, reply: FastifyReply) => {
    // A failed load is tried again by the next request rather than remembered.
    reference ??= referenceApp().catch((error: unknown) => {
      reference = undefined;
      throw error;
    });
    const answer = await (await reference).inject({
      method: request.method === "HEAD" ? "HEAD" : "GET",
      url: request.url,
      headers: { accept: request.headers.accept ?? "*/*" },
    });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !hopHeaders.has(name)) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  app.get(docsPath, { schema: { hide: true } }, serveReference);
  app.get(`${docsPath}/*`, { schema: { hide: true } }, serveReference);
}

/** Set by the server for the answer it sends, not copied from the inner app's. */
const hopHeaders = new Set(["content-length", "connection", "date", "keep-alive", "transfer-encoding"]);

async function referenceApp(): Promise<FastifyInstance> {
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  const app = Fastify({ logger: false });
  await app.register(scalar, {
    routePrefix: docsPath,
    configuration: {
      url: openApiPath,
      withDefaultFonts: false,
      title: "Purse API reference",
      // The page documents Purse, nothing else: no vendor toolbar (its deploy offer), no hosted
      // AI assistant or MCP prompt, no telemetry to the vendor.
      showDeveloperTools: "never",
      agent: { disabled: true },
      mcp: { disabled: true },
      telemetry: false,
    },
    logLevel: "warn",
  });
  await app.ready();
  return app;
}
