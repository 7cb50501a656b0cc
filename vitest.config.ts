import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Workspace packages export their build by default and their TypeScript under "source": tests
// always run the sources (and spawned `purse` processes too, through PURSE_SOURCE).
const conditions = ["source", "module", "node", "development|production"];

export default defineConfig({
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  // The global set-up runs in vitest's own environment: it resolves workspace packages to their
  // sources too, so a fresh clone tests with nothing built.
  environments: { __vitest__: { resolve: { conditions, externalConditions: ["source"] } } },
  // graphql 17 has a "development" build that Vite picks for our sources while Node gives yoga and
  // Pothos the normal one: two copies of graphql in one process ("from another module or realm").
  // Point our imports at the build Node resolves.
  resolve: {
    conditions,
    alias: [
      {
        find: /^graphql$/,
        replacement: fileURLToPath(new URL("./node_modules/graphql/index.mjs", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["./test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for another process or connection (a Redis subscription, a webhook worker):
    // vitest's 1 s default is shorter than a loaded two-core CI machine takes to get there.
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    env: { PURSE_SOURCE: "1" },
  },
});
