import type { EngineDependencies } from "@purse/engine";
import { appRouter, type TrpcContext } from "@purse/trpc";
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyInstance } from "fastify";

/** tRPC at /trpc on the same server (queries, mutations, SSE subscriptions). */
export async function mountTrpc(app: FastifyInstance, deps: EngineDependencies): Promise<void> {
  const options: FastifyTRPCPluginOptions<typeof appRouter>["trpcOptions"] = {
    router: appRouter,
    createContext: ({ req }): TrpcContext => ({ deps, authorization: req.headers.authorization ?? null }),
  };
  await app.register(async (scope) => {
    // tRPC describes itself (the AppRouter type), not in the REST API's OpenAPI document.
    scope.addHook("onRoute", (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await scope.register(fastifyTRPCPlugin, { prefix: "/trpc", trpcOptions: options });
  });
}
