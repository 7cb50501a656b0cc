import type { EngineDependencies } from "@purse/engine";
import { createGraphQLHandler } from "@purse/graphql";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** GraphQL at /graphql on the same fastify server (queries, mutations, SSE subscriptions). */
export function mountGraphQL(app: FastifyInstance, deps: EngineDependencies): void {
  const yoga = createGraphQLHandler(deps);
  app.route({
    url: yoga.graphqlEndpoint,
    method: ["GET", "POST", "OPTIONS"],
    schema: { hide: true },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const response = await yoga.handleNodeRequestAndResponse(request, reply, {});
      for (const [name, value] of response.headers) reply.header(name, value);
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
}
