import type { EngineDependencies } from "@purse/engine";
import { isForbiddenJsonKey, parseExactJson } from "@purse/rest";
import { appRouter, refuseRequest, type TrpcContext, trpcLimits } from "@purse/trpc";
import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import type { FastifyError, FastifyInstance } from "fastify";

/**
 * tRPC at /trpc on the same server (queries, mutations, SSE subscriptions). Its own scope: its own
 * body limit and JSON parsing, and refusals in tRPC's error envelope rather than REST's.
 */
export async function mountTrpc(app: FastifyInstance, deps: EngineDependencies): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // tRPC parses the JSON itself (and answers PARSE_ERROR in its envelope). First, REST's exact
    // reading: an amount a double would round reaches tRPC as its text, an identifier number that
    // is not exactly its digits as null (refused), and a __proto__ key is refused here.
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: trpcLimits.maxBodyBytes },
      (_request, body, done) => {
        const text = String(body);
        let exact: unknown;
        try {
          exact = parseExactJson(text).body;
        } catch (error) {
          if (isForbiddenJsonKey(error)) return done(Object.assign(error as Error, { code: forbiddenKey }));
          return done(null, text);
        }
        done(null, JSON.stringify(exact));
      },
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = refusalOf(error);
      if (refusal.status >= 500) request.log.error({ err: error }, "tRPC request failed");
      return reply.status(refusal.status).send(refusal.body);
    });
    scope.route({
      // A wildcard, not `/:path`: a batch's path lists every procedure, and a long batch must
      // reach tRPC's own batch limit (BAD_REQUEST) rather than the router's parameter length.
      url: "/trpc/*",
      method: ["GET", "POST"],
      bodyLimit: trpcLimits.maxBodyBytes,
      // tRPC describes itself (the AppRouter type), not in the REST API's OpenAPI document.
      schema: { hide: true },
      handler: async (request, reply) => {
        await fastifyRequestHandler({
          router: appRouter,
          maxBatchSize: trpcLimits.maxBatchSize,
          createContext: (): TrpcContext => ({
            deps,
            authorization: request.headers.authorization ?? null,
            clientAddress: request.ip,
            idempotencyKey: headerText(request.headers["idempotency-key"]),
          }),
          req: request,
          res: reply,
          path: (request.params as { "*": string })["*"],
        });
      },
    });
  });
}

const forbiddenKey = "PURSE_FORBIDDEN_JSON_KEY";

/** A header's one value (the first, if it came more than once). */
function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function refusalOf(error: FastifyError): ReturnType<typeof refuseRequest> {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return refuseRequest(
        "PAYLOAD_TOO_LARGE",
        `Request body is larger than ${trpcLimits.maxBodyBytes} bytes.`,
      );
    case forbiddenKey:
      return refuseRequest(
        "BAD_REQUEST",
        "The body may not contain a __proto__ or constructor.prototype key.",
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return refuseRequest("UNSUPPORTED_MEDIA_TYPE", "Send JSON (application/json).");
    default:
      if ((error.statusCode ?? 500) < 500) return refuseRequest("BAD_REQUEST", "Malformed request.");
      return refuseRequest("INTERNAL_SERVER_ERROR", "Internal server error");
  }
}
