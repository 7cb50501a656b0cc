#!/usr/bin/env node
// The `purse` command. It runs the built JavaScript (`npm run build` writes each package's dist/
// and bundles this one's into dist/bundle/); in a checkout that has not been built, or with
// PURSE_SOURCE=1 (the test suite sets it, so tests always exercise the code as it is now), it
// runs the TypeScript sources through tsx instead.
import { existsSync } from "node:fs";
import * as nodeModule from "node:module";

// Most of a start is compiling modules; V8's code cache on disk (Node 22.1+) makes every start
// after the first skip that. NODE_COMPILE_CACHE chooses the directory.
nodeModule.enableCompileCache?.();

// Traces (src/tracing/, docs/operations.md): `purse serve` with OTEL_EXPORTER_OTLP_ENDPOINT set
// starts OpenTelemetry before it imports the app, so that pg and ioredis load through tracing's
// module hooks. The bundle has a traced variant for that (scripts/bundle.mjs); without traces the
// plain bundle runs as before, after one small module has read the variables.
const bundle = new URL("../dist/bundle/main.js", import.meta.url);
const compiled = new URL("../dist/cli/main.js", import.meta.url);

if (process.env.PURSE_SOURCE !== "1" && existsSync(bundle)) {
  const { tracesAsked } = await import(new URL("../dist/bundle/traces-asked.js", import.meta.url).href);
  if (tracesAsked()) {
    await startTracingFrom("../dist/bundle-traced/start-tracing.js");
    await import(new URL("../dist/bundle-traced/main.js", import.meta.url).href);
  } else {
    await import(bundle.href);
  }
} else if (process.env.PURSE_SOURCE !== "1" && existsSync(compiled)) {
  await startTracingFrom("../dist/tracing/start-tracing.js");
  await import(compiled.href);
} else {
  let tsx;
  try {
    tsx = await import("tsx/esm/api");
  } catch {
    console.error(
      "purse: no build found and tsx is not installed: run `npm run build` (or `npm install` for development).",
    );
    process.exit(1);
  }
  // Workspace packages export their sources under the "source" condition, their build otherwise.
  nodeModule.register("./source-condition.js", import.meta.url);
  tsx.register();
  await startTracingFrom("../src/tracing/start-tracing.ts");
  await import("../src/cli/main.ts");
}

/** Starts OpenTelemetry if traces are asked for (the module returns at once when they are not). */
async function startTracingFrom(path) {
  const { startTracingIfAsked } = await import(new URL(path, import.meta.url).href);
  await startTracingIfAsked();
}
