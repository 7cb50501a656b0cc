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

/**
 * The engine's rooms, bottom to top (docs/architecture.md, "The engine's rooms"). A room imports
 * rooms of its own layer's "shared" kind and of the layers below, never above; rooms in one area
 * layer do not import each other (what two areas share belongs to a lower layer). Tests and their
 * `*.test-support.ts` data may use any room to arrange a case.
 */
const engineLayers = [
  // The shared kernel: exact money, errors, input reading, output forms, secrets, the database.
  { name: "kernel", rooms: ["errors", "money", "input", "output", "secrets", "persistence"], shared: true },
  // Cross-cutting services and ports the composition root fills (engine-dependencies.ts names them).
  {
    name: "services",
    rooms: [
      "engine-dependencies.ts",
      "metrics",
      "locks",
      "rate-limit",
      "captcha",
      "events",
      "keys",
      "settings",
      "signature",
      "auth",
      // Test mode's mark, its engine per call and its clocks (what every door asks first).
      "mode",
      "webhooks",
      // The operation declaration's type (`defineOperation`), which every area's operations use.
      "declaration",
    ],
    shared: true,
  },
  { name: "currency", rooms: ["currency"] },
  { name: "wallet", rooms: ["wallet"] },
  // The movement pipeline (it locks wallet rows) and the payment rules every movement applies.
  { name: "ledger and payment rules", rooms: ["ledger", "payment"] },
  { name: "areas", rooms: ["transfer", "checkout", "voucher", "transactions", "user"] },
  { name: "operator verbs", rooms: ["admin", "fixture", "retention"] },
  // Test mode's own verbs (fund a test wallet, move a test clock), over the operator's credit and the sweeps.
  { name: "test mode", rooms: ["test-mode"] },
  // The public face, and the list of declared operations, which gathers every area's.
  { name: "public face", rooms: ["operations", "index.ts"], shared: true },
];
const engineSrc = "^packages/engine/src/";
const roomPath = (room) => `${engineSrc}${room.replaceAll(".", "\\.")}${room.endsWith(".ts") ? "$" : "/"}`;
const anyRoom = (rooms) => `(${rooms.map(roomPath).join("|")})`;
const engineTests = "\\.test(-support)?\\.ts$";
const engineLayerRules = engineLayers.flatMap((layer, index) => {
  const above = engineLayers.slice(index + 1).flatMap((upper) => upper.rooms);
  const upward =
    above.length === 0
      ? []
      : [
          {
            name: `engine-${layer.name.replaceAll(" ", "-")}-points-down`,
            severity: "error",
            comment: `The engine's ${layer.name} (${layer.rooms.join(", ")}) imports only its own layer and the layers below.`,
            from: { path: anyRoom(layer.rooms), pathNot: engineTests },
            to: { path: anyRoom(above) },
          },
        ];
  const sideways =
    layer.shared || layer.rooms.length < 2
      ? []
      : layer.rooms.map((room) => ({
          name: `engine-${room.replace(".ts", "")}-imports-no-peer`,
          severity: "error",
          comment: `${room} imports no other room of the ${layer.name} layer: what they share belongs lower.`,
          from: { path: roomPath(room), pathNot: engineTests },
          to: { path: anyRoom(layer.rooms.filter((other) => other !== room)) },
        }));
  return [...upward, ...sideways];
});
const engineRooms = engineLayers.flatMap((layer) => layer.rooms);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...engineLayerRules,
    {
      name: "engine-room-has-a-layer",
      severity: "error",
      comment: "Every engine room has its place in engineLayers, so no room escapes the layer rules.",
      from: { path: engineSrc, pathNot: [anyRoom(engineRooms), engineTests] },
      to: {},
    },
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
      to: { path: "^packages/(http-kernel|rest|graphql|trpc|server)/" },
    },
    {
      name: "http-kernel-knows-no-door",
      severity: "error",
      comment:
        "@purse/http-kernel holds what the doors share at the HTTP edge (exact JSON, refusal words, live-socket bounds): it sits under the doors and knows the engine only.",
      from: { path: "^packages/http-kernel/" },
      to: { path: "^packages/(rest|graphql|trpc|server)/" },
    },
    {
      name: "doors-do-not-import-each-other",
      severity: "error",
      comment:
        "REST, GraphQL and tRPC talk to the engine and the shared HTTP kernel only; the server package composes them.",
      from: { path: "^packages/(rest|graphql|trpc)/" },
      to: { path: "^packages/(rest|graphql|trpc|server)/", pathNot: "^packages/$1/" },
    },
    {
      name: "doors-hold-no-sql",
      severity: "error",
      comment:
        "The engine is the only place that talks to the database; a door calls a use case. Tests and their harnesses may arrange rows.",
      from: { path: "^packages/(http-kernel|rest|graphql|trpc)/", pathNot: "\\.test\\.ts$" },
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
      name: "test-support-imports-no-testing",
      severity: "error",
      comment:
        "`*.test-support.ts` data lives inside its package, beside the unit tests that share it; @purse/testing builds on the packages, so an import of it from there runs back up the house. A package's tests (`*.test.ts`) may use @purse/testing; helpers that need it live in packages/testing.",
      from: { path: "^packages/(?!testing/)[^/]+/.+\\.test-support\\.ts$" },
      to: { path: "^packages/testing/" },
    },
    {
      name: "migrations-are-frozen",
      severity: "error",
      comment:
        "A shipped migration holds its SQL as it was: importing application code (the ledger's hashing, a store) would change what an old migration does when that code changes. Only MikroORM's Migration class and other migrations.",
      from: { path: "^packages/engine/src/persistence/migrations/", pathNot: "\\.test(-support)?\\.ts$" },
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
