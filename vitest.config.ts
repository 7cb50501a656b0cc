import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// vitest 5's reporter calls Map.groupBy (Node 21+) when it prints failures; Node 20 lacks it.
if (!("groupBy" in Map)) {
  Object.defineProperty(Map, "groupBy", {
    value: <K, V>(items: Iterable<V>, keyOf: (item: V, index: number) => K): Map<K, V[]> => {
      const groups = new Map<K, V[]>();
      let index = 0;
      for (const item of items) {
        const key = keyOf(item, index++);
        groups.set(key, [...(groups.get(key) ?? []), item]);
      }
      return groups;
    },
  });
}

export default defineConfig({
  // graphql 17 has a "development" build that Vite picks for our sources while Node gives yoga and
  // Pothos the normal one: two copies of graphql in one process ("from another module or realm").
  // Point our imports at the build Node resolves.
  resolve: {
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
    pool: "forks",
  },
});
