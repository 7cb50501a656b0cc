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

const outdir = fileURLToPath(new URL("../dist/bundle/", import.meta.url));

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [fileURLToPath(new URL("../dist/cli/main.js", import.meta.url))],
  outdir,
  bundle: true,
  // Dynamic imports (the HTTP stack for `serve`, GraphQL on its first request) stay separate
  // chunks, loaded when they are now.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // No `keepNames`: it wraps every function made at run time (closures per request included) in a
  // call that sets its name, which cost CPU per transfer. Nothing looks a class up by name: the
  // migrations are listed with explicit names (persistence/migrations/index.ts), MikroORM's
  // extensions are given as classes, and esbuild renames only what collides across modules.
  sourcemap: "linked",
  external: [
    "@node-rs/argon2",
    "@electric-sql/pglite",
    "@scalar/fastify-api-reference",
    "@graphql-yoga/render-graphiql",
    "pg-native",
  ],
  // CommonJS dependencies call `require`, which an ES module does not have.
  banner: {
    js: "import { createRequire as __purseRequire } from 'node:module'; const require = __purseRequire(import.meta.url);",
  },
  logLevel: "warning",
});
