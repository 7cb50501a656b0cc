import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { copyTemplateDatabase, dropDatabase, sampleFixture, testRedisUrl } from "@purse/engine/testing";
import { type RunningServer, readConfig, startServer } from "@purse/server";
import { inject } from "vitest";

export const testSecretKey = "conformance-secret-key-at-least-32-chars";

export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  /** POST/GET helper: JSON in, status and parsed JSON out. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  token(clientId: string, secret?: string): Promise<string>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected field by field in tests
  body: any;
}

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

/** A copy of the migrated template, seeded with the sample world (or `fixture`). */
export async function createSeededDatabase(fixture?: unknown): Promise<SeededDatabase> {
  const database = await copyTemplateDatabase(inject("templateDatabase"));
  const seeding = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  try {
    await seedFixture(seeding, secretBoxFromKey(testSecretKey), fixture ?? sampleFixture());
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
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

/** JSON over HTTP against a running Purse: status and parsed body back. */
export function callerFor(
  baseUrl: string,
): (method: string, path: string, options?: CallOptions) => Promise<CallResult> {
  return async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers["authorization"] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers["content-type"] ??= "application/json";
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === "string"
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      // Not JSON (the docs page): keep the text.
    }
    return { status: response.status, body };
  };
}

function withClient(server: RunningServer, close: () => Promise<void>): TestServer {
  const call = callerFor(server.url);
  return {
    url: server.url,
    server,
    call,
    async token(clientId, secret = `${clientId}-secret`) {
      const response = await call("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope: "api" },
      });
      if (response.status !== 200) throw new Error(`token for ${clientId}: ${JSON.stringify(response.body)}`);
      return response.body.access_token as string;
    },
    close,
  };
}
