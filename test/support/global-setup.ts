import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  createSampleWorldTemplate,
  createTemplateDatabase,
  dropDatabase,
  testEngineSecretKey,
} from "@purse/testing";
import type { TestProject } from "vitest/node";
import { testSecretKey } from "./test-secret-key.ts";

const repository = fileURLToPath(new URL("../..", import.meta.url));

/**
 * What a few tests run as it ships (the bundled `purse`, the dashboard's page, purse-client's
 * tarball) is built once here when a checkout was never built, so a fresh clone's `npm test`
 * needs no other step; turbo builds only what is missing or stale.
 */
const builds = [
  "packages/server/dist/bundle/main.js",
  "packages/dashboard/dist/index.html",
  "packages/client/dist/index.d.ts",
];

async function buildWhatIsMissing(): Promise<void> {
  if (builds.every((file) => existsSync(`${repository}/${file}`))) return;
  console.log("Building the server bundle, the dashboard and purse-client for the tests that run them…");
  await promisify(execFile)(
    "npx",
    ["turbo", "run", "build", "--filter=@purse/server", "--filter=purse-client", "--output-logs=errors-only"],
    { cwd: repository, env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }, maxBuffer: 64 * 1024 * 1024 },
  );
}

/**
 * Migrates one template database per run, and seeds the sample world once into two copies of it
 * (one per secret key the tests seal under); every test file copies one of them (createTestDatabase).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [template] = await Promise.all([createTemplateDatabase(), buildWhatIsMissing()]);
  const [engine, server] = await Promise.all([
    createSampleWorldTemplate(template, testEngineSecretKey),
    createSampleWorldTemplate(template, testSecretKey),
  ]);
  project.provide("templateDatabase", template);
  project.provide("sampleWorldTemplates", { engine, server });
  return async () => {
    await Promise.all([dropDatabase(engine), dropDatabase(server)]);
    await dropDatabase(template);
  };
}
