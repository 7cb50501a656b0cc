/** Dependencies point inward: adapters use the engine; the engine uses no transport. */
module.exports = {
  forbidden: [
    {
      name: "engine-stays-framework-free",
      comment: "The engine is the core: no HTTP, GraphQL or tRPC code, and no adapter package.",
      severity: "error",
      from: { path: "^packages/engine/src" },
      to: {
        path: [
          "node_modules/(fastify|@fastify|graphql|graphql-yoga|@pothos|@trpc)/",
          "^packages/(rest|graphql|trpc|server)/",
        ],
      },
    },
    {
      name: "adapters-do-not-know-each-other",
      comment: "REST, GraphQL and tRPC each talk to the engine only; the server composes them.",
      severity: "error",
      from: { path: "^packages/(rest|graphql|trpc)/src" },
      to: { path: "^packages/(rest|graphql|trpc|server)/", pathNot: "^packages/$1/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    exclude: { path: "\\.test\\.ts$" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default"] },
  },
};
