import type { EngineDependencies } from "@purse/engine";
import { answerFrameworkError, isForbiddenJsonKey, parseExactJson, requestRefusal } from "@purse/rest";
import { appRouter, refuseRequest, type TrpcContext, trpcLimits } from "@purse/trpc";
import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

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
    // The bare `/trpc` names no procedure: tRPC's own NOT_FOUND, in its envelope.
    scope.route({
      url: "/trpc",
      method: ["GET", "POST"],
      bodyLimit: trpcLimits.maxBodyBytes,
      schema: { hide: true },
      handler: (request, reply) => answerTrpc(request, reply, ""),
    });
    scope.route({
      // A wildcard, not `/:path`: a batch's path lists every procedure, and a long batch must
      // reach tRPC's own batch limit (BAD_REQUEST) rather than the router's parameter length.
      url: "/trpc/*",
      method: ["GET", "POST"],
      bodyLimit: trpcLimits.maxBodyBytes,
      // tRPC describes itself (the AppRouter type), not in the REST API's OpenAPI document.
      schema: { hide: true },
      handler: (request, reply) => answerTrpc(request, reply, (request.params as { "*": string })["*"]),
    });
  });

  function answerTrpc(request: FastifyRequest, reply: FastifyReply, path: string): Promise<void> {
    return fastifyRequestHandler({
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
      path,
    });
  }
}

/**
 * The router's own refusals (bad percent-encoding, an over-long path) on a tRPC path, in tRPC's
 * envelope as the rest of its refusals; on any other path, REST's.
 */
export function answerFrameworkErrorByDoor(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!/^\/+trpc(\/|\?|$)/.test(request.url)) return answerFrameworkError(error, request, reply);
  const { status, message } = requestRefusal(error);
  return reply.status(status).send(refuseRequest("BAD_REQUEST", message).body);
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
      // REST's words for it, in tRPC's envelope.
      return refuseRequest("BAD_REQUEST", requestRefusal(error).message);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return refuseRequest("UNSUPPORTED_MEDIA_TYPE", "Send JSON (application/json).");
    default:
      if ((error.statusCode ?? 500) < 500) return refuseRequest("BAD_REQUEST", "Malformed request.");
      return refuseRequest("INTERNAL_SERVER_ERROR", "Internal server error");
  }
}
