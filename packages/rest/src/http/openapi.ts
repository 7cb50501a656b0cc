import swagger from "@fastify/swagger";
import scalar from "@scalar/fastify-api-reference";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";

/**
 * OpenAPI 3.1 generated from the routes' zod schemas (the same ones that validate requests),
 * served at /openapi.json, with a reference page at /docs whose assets ship in the package.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Purse wallet payment API",
        version: "1.0.0",
        description:
          "Wallets, checkout links, transfers, vouchers and history. Amounts are exact decimal strings in requests. " +
          'Errors: {"status": false, "message": ..., "errors": {field: [text]}, "translation": key}.',
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "Access token from POST /token" },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  await app.register(scalar, {
    routePrefix: "/docs",
    configuration: { url: "/openapi.json" },
    logLevel: "warn",
  });
}
