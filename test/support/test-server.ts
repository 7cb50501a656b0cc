import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { type RunningServer, readConfig, startServer } from "@purse/server";
import {
  copyTemplateDatabase,
  dropDatabase,
  freePort,
  type HttpClient,
  httpClient,
  testRedisUrl,
} from "@purse/testing";
import { inject } from "vitest";
import { testSecretKey } from "./test-secret-key.ts";

export { testSecretKey };

/** The whole `purse serve` stack, with the one test client (`call`, `token`) every test uses. */
export interface TestServer extends HttpClient {
  readonly url: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export { type CallOptions, type CallResult, callerFor } from "@purse/testing";

export interface TestServerOptions {
  fixture?: unknown;
  env?: Record<string, string>;
  /** Serve an existing database (from `createSeededDatabase`) and leave it in place on close. */
  database?: SeededDatabase;
}

export interface SeededDatabase {
  readonly name: string;
  readonly url: string;
}

/**
 * A copy of the migrated template seeded with `fixture`, or of the run's template that already
 * holds the sample world (seeded once by the global set-up, under the same key).
 */
export async function createSeededDatabase(fixture?: unknown): Promise<SeededDatabase> {
  if (fixture === undefined) return copyTemplateDatabase(inject("sampleWorldTemplates").server);
  const database = await copyTemplateDatabase(inject("templateDatabase"));
  const seeding = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  try {
    await seedFixture(seeding, secretBoxFromKey(testSecretKey), fixture);
  } finally {
    await seeding.close();
  }
  return database;
}

/**
 * The real `purse serve` stack on a free port, over its own copy of the migrated template database
 * and the real Redis, seeded with the sample world (or `fixture`).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createSeededDatabase(options.fixture));
  // A fixed port, so that BASE_URL and the payment links it makes point at this very server.
  const port = await freePort();
  const config = readConfig({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl,
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    PURSE_SECRET_KEY: testSecretKey,
    PURSE_CAPTCHA: "off",
    PURSE_REDIS_PREFIX: database.name,
    ...options.env,
  });
  const server = await startServer(config);
  return withClient(server, async () => {
    await server.stop();
    if (!options.database) await dropDatabase(database.name);
  });
}

/** The embedded default (PGlite in a temporary directory, in-process locks), as `npm start` runs it. */
export async function startEmbeddedServer(
  options: { log?: (line: string) => void; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "purse-embedded-"));
  const server = await startServer(
    readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      PURSE_DATA_DIR: dataDir,
      ...options.env,
    }),
    options.log,
  );
  return withClient(server, async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
}

function withClient(server: RunningServer, close: () => Promise<void>): TestServer {
  return { ...httpClient(server.url), url: server.url, server, close };
}
