import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Workspace packages export their build by default and their TypeScript under "source": tests
// run the sources in process. A spawned `purse` runs the bundle (PURSE_SOURCE=0), as it ships: the
// global set-up rebuilds it from these sources before any test runs (turbo: only when they changed),
// and it starts in a fraction of what compiling the sources through tsx costs each process.
const conditions = ["source", "module", "node", "development|production"];

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * A package's test is a unit test when it touches no service: it names neither the test support
 * (@purse/testing: databases, engines, harnesses), PostgreSQL, Redis, child processes nor what the
 * global set-up provides. Unit tests run in worker threads, which start faster than processes; a
 * file that needs a database and is taken for a unit test fails loudly (nothing is provided to it).
 */
const touchesAService = /@purse\/testing|from "pg"|redis|node:child_process|inject\(/i;

function unitTestFiles(): string[] {
  return readdirSync(`${root}packages`).flatMap((pkg) => {
    const source = `packages/${pkg}/src`;
    if (!existsSync(`${root}${source}`)) return [];
    return readdirSync(`${root}${source}`, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => `${source}/${file}`)
      .filter((file) => !touchesAService.test(readFileSync(`${root}${file}`, "utf8")));
  });
}

const unitTests = unitTestFiles();

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
    exclude: ["**/node_modules/**"],
    // Runs once per run, whichever projects run: the migrated template and the sample world.
    globalSetup: ["./test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for another process or connection (a Redis subscription, a webhook worker):
    // vitest's 1 s default is shorter than a loaded two-core CI machine takes to get there.
    expect: { poll: { timeout: 10_000 } },
    // vitest's default on two cores is one worker (cores less one). Files share nothing (each has
    // its own databases, Redis prefix and free ports), and most of a file's time is spent waiting
    // on PostgreSQL or a child process, so two run side by side.
    maxWorkers: 2,
    // A worker runs file after file in one process: the packages' modules (the engine, the three
    // doors, the server, their libraries) are loaded once per worker instead of once per file,
    // which cost more than a second of a core for each of about 190 files. Files still share no
    // data (databases, Redis prefixes, ports); what they could share is process state, and the
    // setup file fails a file that leaves the environment changed or fake timers installed.
    isolate: false,
    setupFiles: ["./test/support/leave-worker-as-found.ts"],
    // Cheap password and secret hashes (packages/engine/src/secrets/hash-cost.ts): every stored hash
    // carries its cost, so the code verifies them as it verifies production's. The tests of the
    // hashes themselves unset it; `PURSE_HASH_COST=production npm test` runs everything at full cost.
    env: { PURSE_SOURCE: "0", PURSE_HASH_COST: process.env["PURSE_HASH_COST"] ?? "test" },
    // `npx vitest run --project unit` (or database, end-to-end, citus) runs one kind.
    projects: [
      { extends: true, test: { name: "unit", include: unitTests, pool: "threads" } },
      {
        extends: true,
        test: {
          name: "database",
          include: ["packages/*/src/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...unitTests],
          pool: "forks",
        },
      },
      {
        extends: true,
        test: {
          name: "end-to-end",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "test/citus/**"],
          pool: "forks",
        },
      },
      // Each Citus file starts a cluster of its own (three to six PostgreSQL instances): two side
      // by side, or one beside the rest of the suite, held a two-core machine at a load average of
      // 25 to 39 and timed their tests out. They run last, one at a time.
      {
        extends: true,
        test: {
          name: "citus",
          include: ["test/citus/**/*.test.ts"],
          pool: "forks",
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
