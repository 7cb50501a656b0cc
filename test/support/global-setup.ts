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
 * What tests run as it ships (the bundled `purse` every spawned process runs, the dashboard's
 * page, purse-client's declarations) is built here, so a fresh clone's `npm test` needs no other
 * step, and a checkout built before a change is not tested on its old build (a dashboard fix
 * tested against a stale page passed once without being there). Each is built from the sources
 * (the bundle by esbuild, the client's declarations by tsc over the tRPC package's sources), not
 * after the packages' own tsc builds, which no test runs: on a fresh clone, 30 s instead of 155 s
 * (load average 7 to 8, two cores). turbo rebuilds only what is missing or whose sources changed
 * (turbo.json names the workspace sources each one reads): about a second when nothing did.
 */
const builds = [
  "packages/server/dist/bundle/main.js",
  "packages/dashboard/dist/index.html",
  "packages/client/dist/index.d.ts",
];

async function buildWhatIsStale(): Promise<void> {
  const missing = !builds.every((file) => existsSync(`${repository}/${file}`));
  if (missing)
    console.log("Building the server bundle, the dashboard and purse-client for the tests that run them…");
  await promisify(execFile)(
    "npx",
    [
      "turbo",
      "run",
      "@purse/server#bundle",
      "purse-client#build",
      "@purse/dashboard#build",
      "--output-logs=errors-only",
    ],
    { cwd: repository, env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }, maxBuffer: 64 * 1024 * 1024 },
  );
}

/**
 * vitest gives its global set-up no time limit: a set-up that hangs (once, a migration waiting on
 * its own uncommitted schema) would hold CI until its own limit with nothing printed. Ten minutes
 * is several times the longest cold build seen on a loaded two-core machine.
 */
async function withinSetUpLimit<T>(work: () => Promise<T>): Promise<T> {
  const limitMs = 25 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The tests' global set-up (build, template database, sample world) took over ${limitMs / 60_000} minutes: look for a hung migration or build`,
          ),
        ),
      limitMs,
    );
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Migrates one template database per run, and seeds the sample world once into two copies of it
 * (one per secret key the tests seal under); every test file copies one of them (createTestDatabase).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The sample world's password and client-secret hashes at the tests' cost (vitest.config.ts).
  process.env["PURSE_HASH_COST"] ??= project.config.env["PURSE_HASH_COST"];
  const [engine, server, template] = await withinSetUpLimit(async () => {
    const [template] = await Promise.all([createTemplateDatabase(), buildWhatIsStale()]);
    return [
      ...(await Promise.all([
        createSampleWorldTemplate(template, testEngineSecretKey),
        createSampleWorldTemplate(template, testSecretKey),
      ])),
      template,
    ] as const;
  });
  // In watch mode a rerun follows an edit: the spawned `purse` must run the bundle of the edit.
  project.onTestsRerun(buildWhatIsStale);
  project.provide("templateDatabase", template);
  project.provide("sampleWorldTemplates", { engine, server });
  return async () => {
    await Promise.all([dropDatabase(engine), dropDatabase(server)]);
    await dropDatabase(template);
  };
}
