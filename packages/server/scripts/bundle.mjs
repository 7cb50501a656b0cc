// `purse` as a few files instead of a few thousand: the last step of this package's build.
//
// Why: a start of `purse serve` spent most of its time finding, reading and linking modules (kysely
// alone is some 400 files), not running them: 1.7 to 1.9 s to /readyz on a 2-core machine, 0.9 to
// 1.3 s bundled (docs/benchmark.md, "Start-up"). bin/purse.js runs this bundle when it exists.
//
// The bundle lives in dist/bundle/, as deep as dist/serve/, so paths written relative to a module
// (`../../../../fixtures/demo.json`) still land where they did. Left outside it, loaded from
// node_modules as before: native addons and WebAssembly (argon2, PGlite) and packages that read
// files of their own at run time (the API reference page's script), and GraphiQL's 9 MB of built
// files (a leaf that only development servers load, on the first visit). Only leaves: a package left
// outside that imports one bundled would load a second copy of it (MikroORM's PGlite driver
// outside meant two MikroORMs, and the embedded database never started).
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const fromDist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const fromSource = (path) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

/** Left outside both bundles (see above). */
const leaves = [
  "@node-rs/argon2",
  "@electric-sql/pglite",
  "@scalar/fastify-api-reference",
  "@graphql-yoga/render-graphiql",
  "pg-native",
];

/**
 * The traced variant, which bin/purse.js runs when OTEL_EXPORTER_OTLP_ENDPOINT asks for traces
 * (docs/operations.md, "Traces"). OpenTelemetry patches pg and ioredis as Node loads them, through
 * its module hooks; bundled, they are never loaded as modules and stay unpatched. So this variant
 * leaves them in node_modules, with the hooks themselves (import-in-the-middle, whose loader and
 * whose hook registry must be one copy, and require-in-the-middle, which patches Node's own
 * `require`). OpenTelemetry's SDK is bundled: a traced start cost 590 ms more CPU than a plain one
 * with the SDK loaded from node_modules, 330 ms bundled (bench/startup-time.ts, same run's plain
 * build as reference). The plain bundle leaves out only the leaves: traces off start as before.
 */
const traced = ["pg", "ioredis", "import-in-the-middle", "require-in-the-middle"];

// traces-asked.js: what bin/purse.js reads first, to choose between the two.
await bundle("bundle", ["cli/main.ts", "tracing/traces-asked.ts"], leaves);
await bundle("bundle-traced", ["cli/main.ts", "tracing/start-tracing.ts"], [...leaves, ...traced]);

/** Each entry at the top of its folder (dist/bundle/main.js), whatever folder its source is in. */
function atTop(path) {
  return { in: fromSource(path), out: path.slice(path.lastIndexOf("/") + 1, -".ts".length) };
}

async function bundle(folder, entries, external) {
  const outdir = fromDist(`${folder}/`);
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entries.map(atTop),
    outdir,
    bundle: true,
    // Dynamic imports (the HTTP stack for `serve`, GraphQL on its first request) stay separate
    // chunks, loaded when they are now; the traced variant's two entries share theirs (one copy of
    // the tracing state that start-tracing.js sets and the app reads).
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    // From the TypeScript sources, the workspace's packages too (their `source` export): the bundle
    // needs no package's tsc output, so the tests' set-up bundles without compiling six packages first.
    conditions: ["source"],
    // No `keepNames`: it wraps every function made at run time (closures per request included) in a
    // call that sets its name, which cost CPU per transfer. Nothing looks a class up by name: the
    // migrations are listed with explicit names (persistence/migrations/index.ts), MikroORM's
    // extensions are given as classes, and esbuild renames only what collides across modules.
    sourcemap: "linked",
    external,
    // CommonJS dependencies call `require`, which an ES module does not have.
    banner: {
      js: "import { createRequire as __purseRequire } from 'node:module'; const require = __purseRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
}
