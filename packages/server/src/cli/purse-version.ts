import { readFileSync } from "node:fs";

/**
 * Purse's version: @purse/server's, which purse-client's follows (test/client/client-package.test.ts).
 * Read at run time: this module sits two levels below the package in the sources (src/cli/), in
 * the build (dist/cli/) and in the bundle (dist/bundle/) alike, so one relative path finds it.
 */
export function purseVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error("packages/server/package.json has no version");
  return version;
}
