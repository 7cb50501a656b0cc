#!/usr/bin/env node
// The `purse` command. It runs the bundle (`npm run build`, or `npm run bundle -w @purse/server`,
// bundles the sources into dist/bundle/); in a checkout that has not been built, or with
// PURSE_SOURCE=1 (the test suite sets it, so tests always exercise the code as it is now), it
// runs the TypeScript sources through tsx instead.
import { existsSync } from "node:fs";
import * as nodeModule from "node:module";

// `purse serve` runs with the two memory settings the Dockerfile and the systemd unit give it
// (docs/deploy.md, "Memory"), however it is started (`npx purse serve`, `npm start`, a test), since
// both must be in place when the process starts:
// - MALLOC_MMAP_THRESHOLD_: glibc keeps the blocks scrypt frees on libuv's threads (16 MiB per
//   client-secret check) in each thread's arena for the life of the process, some 64 MiB after
//   the first few hundred `/token` calls; with the threshold at 1 MiB such blocks are mapped on
//   their own and unmapped when freed (musl and other systems ignore the variable);
// - V8's old generation at 256 MB, which V8 then collects sooner instead of letting request
//   garbage fill it between major collections.
// Without them it replaces itself (execve: same pid, same arguments) with a process that has
// them, before anything is loaded. Either set by the caller is kept as set.
const serveWithout =
  process.argv[2] === "serve" && process.platform === "linux" && typeof process.execve === "function"
    ? {
        mmapThreshold:
          process.env.MALLOC_MMAP_THRESHOLD_ === undefined &&
          !process.env.GLIBC_TUNABLES?.includes("mmap_threshold"),
        heapLimit: ![...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((option) =>
          option.includes("--max-old-space-size"),
        ),
      }
    : { mmapThreshold: false, heapLimit: false };
if (serveWithout.mmapThreshold || serveWithout.heapLimit) {
  process.execve(
    process.execPath,
    [
      process.execPath,
      ...(serveWithout.heapLimit ? ["--max-old-space-size=256"] : []),
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    serveWithout.mmapThreshold ? { ...process.env, MALLOC_MMAP_THRESHOLD_: "1048576" } : process.env,
  );
}

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
