/**
 * The import map a reader follows, checked in CI (`npm run cycles`): no cycle anywhere (type-only
 * imports count: they are still a loop to read), and dependencies point inward. Biome's
 * noRestrictedImports says the same per package at lint time; this also sees `import type`,
 * re-exports and relative paths that climb into another package.
 */
// Paths as resolved (node_modules/<package>/...), so `import type` and deep imports count too.
const frameworks =
  "node_modules/(fastify|@fastify/|graphql|graphql-yoga|@graphql-yoga/|@pothos/|@trpc/|@escape\\.tech/)";
const redis = "node_modules/(ioredis|@sesamecare-oss/redlock|redlock)/";
const sql = "node_modules/(@mikro-orm/|kysely/|pg/|pg-[^/]+/|@electric-sql/pglite/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import loop, type-only or not, is a loop in the map a reader follows.",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-framework-free",
      severity: "error",
      comment:
        "The engine holds rules and use cases: HTTP, GraphQL and tRPC (even their types) belong in the doors.",
      from: { path: "^packages/engine/" },
      to: { path: frameworks },
    },
    {
      name: "engine-ports-only",
      severity: "error",
      comment: "Redis adapters (locks, rate limits, event bus) live in packages/server/src/composition.",
      from: { path: "^packages/engine/" },
      to: { path: redis },
    },
    {
      name: "engine-imports-no-package",
      severity: "error",
      comment: "The engine is the centre: no other Purse package.",
      from: { path: "^packages/engine/" },
      to: { path: "^packages/(rest|graphql|trpc|server)/" },
    },
    {
      name: "doors-do-not-import-each-other",
      severity: "error",
      comment: "REST, GraphQL and tRPC talk to the engine only; the server package composes them.",
      from: { path: "^packages/(rest|graphql|trpc)/" },
      to: { path: "^packages/(rest|graphql|trpc|server)/", pathNot: "^packages/$1/" },
    },
    {
      name: "doors-hold-no-sql",
      severity: "error",
      comment:
        "The engine is the only place that talks to the database; a door calls a use case. Tests and their harnesses may arrange rows.",
      from: { path: "^packages/(rest|graphql|trpc)/", pathNot: "\\.test\\.ts$" },
      to: { path: sql },
    },
    {
      name: "production-imports-no-test-support",
      severity: "error",
      comment:
        "Test support (@purse/testing in packages/testing, and `*.test-support.ts` data beside unit tests) is for tests, and no build emits it: a production file that imported it would break in dist.",
      from: { path: "^packages/(?!testing/)[^/]+/", pathNot: "\\.test(-support)?\\.ts$" },
      to: { path: "(^packages/testing/|\\.test-support\\.ts$)" },
    },
    {
      name: "migrations-are-frozen",
      severity: "error",
      comment:
        "A shipped migration holds its SQL as it was: importing application code (the ledger's hashing, an entity) would change what an old migration does when that code changes. Only MikroORM's Migration class and other migrations.",
      from: { path: "^packages/engine/src/persistence/migrations/", pathNot: "\\.test\\.ts$" },
      to: {
        pathNot: ["^packages/engine/src/persistence/migrations/", "node_modules/@mikro-orm/migrations/"],
        dependencyTypesNot: ["core"],
      },
    },
    {
      name: "packages-do-not-import-tests",
      severity: "error",
      comment: "Cross-package tests in test/ use the packages, never the other way round.",
      from: { path: "^packages/" },
      to: { path: "^test/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // node_modules stays in the graph as leaves (not followed), so the rules above can see it.
    exclude: { path: "(^|/)(dist|\\.purse-data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    // Workspace packages resolve to their sources, as the tests and the type checker see them.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["source", "import", "types", "default"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
    },
    combinedDependencies: false,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
