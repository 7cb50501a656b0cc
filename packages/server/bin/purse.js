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

const built = [
  // A few files: a start does not look up thousands of modules (scripts/bundle.mjs).
  new URL("../dist/bundle/main.js", import.meta.url),
  new URL("../dist/cli/main.js", import.meta.url),
].find((file) => existsSync(file));

if (process.env.PURSE_SOURCE !== "1" && built) {
  await import(built.href);
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
  await import("../src/cli/main.ts");
}
