import type { EngineDependencies } from "@purse/engine";
import { type BuildRestAppOptions, buildRestApp, type ErrorBody } from "@purse/rest";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import {
  createTestEngine,
  type HttpClient,
  httpClient,
  type TestEngine,
  type TestEngineOptions,
} from "../index.ts";

/** The API's success envelope. */
export interface Envelope<T> {
  status: true;
  data: T;
}

export type { CallOptions, CallResult } from "../index.ts";

/** The REST door alone, in this process, with the one test client (`call`, `token`) every test uses. */
export interface RestHarness extends HttpClient {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly engine: TestEngine;
  readonly deps: EngineDependencies;
  /**
   * Changes one issued token's row in this harness's own database, for states the API cannot
   * reach: e.g. `"scope = 'read'"`, or an expiry in the past.
   */
  changeToken(token: string, assignments: string): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions extends TestEngineOptions {
  readonly logger?: BuildRestAppOptions["logger"];
  /** Changes what the app is given (e.g. a route lock that holds on longer), not what the test sees. */
  readonly wrapDeps?: (deps: EngineDependencies) => EngineDependencies;
}

/**
 * The real REST app on a free port over a fresh PostgreSQL database (seeded with the sample world
 * or `fixture`) and the real Redis; tests talk to it with `fetch`.
 */
export async function startRestHarness(options: HarnessOptions = {}): Promise<RestHarness> {
  const { logger, wrapDeps, ...engineOptions } = options;
  const engine = await createTestEngine(engineOptions);
  const appDeps = wrapDeps ? wrapDeps(engine.deps) : engine.deps;
  const app = await buildRestApp(appDeps, logger === undefined ? {} : { logger });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("the app is not on a TCP port");
  const url = `http://127.0.0.1:${address.port}`;

  async function sql(text: string, values: unknown[] = []): Promise<void> {
    const client = new pg.Client({ connectionString: engine.database.url });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  return {
    ...httpClient(url),
    url,
    app,
    engine,
    deps: engine.deps,
    // Tokens are stored as the hex SHA-256 of their text.
    changeToken: (token, assignments) =>
      sql(
        `update access_tokens set ${assignments} where token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [token],
      ),
    async close() {
      await app.close();
      await engine.close();
    },
  };
}

/** Waits, for tests that need requests to overlap. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A `wrapDeps` whose route lock holds `ms` longer than the work takes, so that simultaneous
 * requests surely overlap inside it.
 */
export function slowRouteLock(ms: number): (deps: EngineDependencies) => EngineDependencies {
  return (deps) => ({
    ...deps,
    routeLock: {
      run: (keys, ttlMs, work) =>
        deps.routeLock.run(keys, ttlMs, async () => {
          await pause(ms);
          return work();
        }),
      close: () => deps.routeLock.close(),
    },
  });
}

type TypeName = "string" | "number" | "boolean" | "object" | "array";

/** Exactly these keys, each of this JSON type: catches a renamed, missing, extra or mistyped field. */
export function shapeOf(value: unknown): Record<string, TypeName> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`not an object: ${JSON.stringify(value)}`);
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      Array.isArray(item) ? "array" : (typeof item as TypeName),
    ]),
  );
}

/**
 * The exact error body the contract prescribes for `message` (and its field and translation), with
 * the catalogue `code` a program reads: each test names the code it expects, so a refusal that
 * changes its code fails as surely as one that changes its text.
 */
export function errorOf(
  code: ErrorBody["code"],
  message: string,
  field?: string,
  translation?: string,
): ErrorBody {
  return {
    status: false,
    message,
    ...(field === undefined ? {} : { errors: { [field]: [message] } }),
    ...(translation === undefined ? {} : { translation }),
    code,
  };
}

/** The caller's wallet balances by number, as GET /api/wallets reports them. */
export async function balancesOf(api: RestHarness, token: string): Promise<Record<string, number>> {
  const response = await api.call<Envelope<{ number: string; amount: number }[]>>("GET", "/api/wallets", {
    token,
  });
  if (response.status !== 200) throw new Error(`GET /api/wallets answered ${response.status}`);
  return Object.fromEntries(response.body.data.map((wallet) => [wallet.number, wallet.amount]));
}
