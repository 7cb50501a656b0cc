import type { WebsocketHandler } from "@fastify/websocket";
import type { EngineDependencies } from "@purse/engine";
import { admitLiveSockets, liveSocketLimits } from "@purse/http-kernel";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { graphiqlAsset, graphiqlAssetsPath, graphiqlPolicy } from "../graphiql/graphiql-assets.ts";
import { graphqlPath, queryLimits } from "../limits/query-bounds.ts";
import type { GraphQLDoorOptions, PurseYoga } from "../yoga.ts";
import { graphqlSocketHandler } from "./graphql-socket.ts";

/**
 * GraphQL at /graphql on the host's fastify server (queries, mutations, SSE subscriptions, and
 * subscriptions over WebSocket with the graphql-ws protocol; the host registers the live sockets
 * first, @purse/http-kernel's registerLiveSockets), in its own scope: its own body
 * limit and JSON parser, and refusals in GraphQL's `{"errors": [...]}`.
 * GraphQL (yoga, Pothos, graphql-js and the schema) is loaded apart from the start, by dynamic
 * import: it is a third of what a start would otherwise compile, so this file imports only the
 * door's bounds and GraphiQL's file list (`@purse/graphql/http`, apart from the package's index).
 * The host calls `load` once it listens (and its readiness waits for it): loading runs for a few
 * hundred milliseconds of one core without yielding, which the first GraphQL request would
 * otherwise pay, and every request of the process with it.
 */
export async function mountGraphQL(
  app: FastifyInstance,
  deps: EngineDependencies,
  options: GraphQLDoorOptions,
): Promise<MountedGraphQL> {
  let yoga: Promise<PurseYoga> | undefined;
  const loadYoga = () =>
    (yoga ??= import("../yoga.ts").then(({ createGraphQLHandler }) => createGraphQLHandler(deps, options)));
  let socketHandler: Promise<WebsocketHandler> | undefined;
  const loadSocketHandler = () =>
    (socketHandler ??= Promise.all([loadYoga(), import("../live/graphql-ws-options.ts")]).then(
      ([loaded, { graphqlWsOptions }]) =>
        graphqlSocketHandler(graphqlWsOptions(loaded, deps, liveSocketLimits)),
    ));
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Fastify's own parser: secure-json-parse refuses `__proto__` and `constructor.prototype` keys.
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: queryLimits.maxBodyBytes },
      scope.getDefaultJsonParser("error", "error"),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, "GraphQL request failed");
      return reply.status(status).send({ errors: [{ message: refusalMessage(error, status) }] });
    });
    // No route here needs OpenAPI's `hide`: REST's document sees REST's own scope only.
    if (options.graphiql && !options.production) registerGraphiQLAssets(scope);
    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      const response = await (await loadYoga()).handleNodeRequestAndResponse(request, reply, {
        clientAddress: request.ip,
      });
      for (const [name, value] of response.headers) reply.header(name, value);
      reply.status(response.status);
      return reply.send(response.body);
    };
    scope.route({
      url: graphqlPath,
      method: ["POST", "OPTIONS"],
      bodyLimit: queryLimits.maxBodyBytes,
      handler: answer,
    });
    // GET also takes the WebSocket upgrade (@fastify/websocket allows it on GET routes only).
    scope.route({
      url: graphqlPath,
      method: "GET",
      preHandler: admitLiveSockets(deps, (message) => ({ errors: [{ message }] })),
      handler: answer,
      wsHandler(socket, request) {
        // GraphQL loads on first use: frames that arrive meanwhile wait, none is dropped.
        socket.pause();
        loadSocketHandler().then(
          (handle) => {
            void handle.call(this, socket, request);
            socket.resume();
          },
          () => socket.close(1011, "Unexpected error."),
        );
      },
    });
  });
  return { load: () => loadYoga().then(() => undefined) };
}

/** The mounted door: `load` loads GraphQL now (once; later calls answer the same promise). */
export interface MountedGraphQL {
  load(): Promise<void>;
}

/**
 * GraphiQL's own files (its page is yoga's answer to a browser's GET /graphql): the script, the
 * stylesheet, Monaco's workers and the icon, read on the first request and kept in memory. Their
 * names carry no version, so they are revalidated (ETag) rather than cached for good.
 */
function registerGraphiQLAssets(scope: FastifyInstance): void {
  scope.get<{ Params: { file: string } }>(`${graphiqlAssetsPath}/:file`, async (request, reply) => {
    const asset = await graphiqlAsset(request.params.file);
    // Workers get their policy from their own answer; the other files carry it too.
    reply.header("content-security-policy", graphiqlPolicy);
    if (!asset) return reply.code(404).send({ errors: [{ message: "Not found." }] });
    reply.header("cache-control", "no-cache").header("etag", asset.etag);
    if (request.headers["if-none-match"] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });
}

const invalidJson = "Request body is not valid JSON, or has a __proto__ or constructor.prototype key.";

function refusalMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return `Request body is larger than ${queryLimits.maxBodyBytes} bytes.`;
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "Send JSON (application/json), or a GET query.";
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "Request body is empty.";
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidJson;
    default:
      return status >= 500 ? "Unexpected error." : "Bad request.";
  }
}
