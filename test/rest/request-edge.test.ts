import { dropDatabase, startPostgresRelay } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const unavailable = {
  status: false,
  message: "Service temporarily unavailable, try again shortly.",
  code: "DATABASE_UNAVAILABLE",
};

// The REST door's own edge (forms, bodies, paths, limits) is tested beside it in packages/rest; here
// the same answers from the whole server, GraphQL's mount included, and what only it has: a database.
describe("the whole server's request edge (purse serve)", () => {
  let server: TestServer;
  let acme: string;
  beforeAll(async () => {
    server = await startTestServer();
    acme = await server.token("acme");
  });
  afterAll(() => server.close());

  it("answers bad percent-encoding and over-long parameters in the contract's shape, on any path", async () => {
    for (const path of ["/%E0%A4%A", "/graphql/%E0%A4%A", "/api/wallets/search/%E0%A4%A"]) {
      const response = await server.call("GET", path, { token: acme });
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({
        status: false,
        message: "The URL is not valid (bad percent-encoding).",
        code: "BAD_REQUEST",
      });
    }
    const long = await server.call("GET", `/api/wallets/search/${"x".repeat(6000)}`, { token: acme });
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ status: false, message: "The URL is too long.", code: "URI_TOO_LONG" });
  });

  it("collapses duplicate slashes and takes a trailing slash", async () => {
    for (const path of ["/api//wallets", "/api/wallets/", "//api/wallets"]) {
      const response = await server.call("GET", path, { token: acme });
      expect(response.status, path).toBe(200);
    }
    const token = await server.call("POST", "//token", {
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
      }),
    });
    expect(token.status).toBe(200);
  });
});

describe("a server whose database goes away", () => {
  let database: SeededDatabase;
  beforeAll(async () => {
    database = await createSeededDatabase();
  });
  afterAll(() => dropDatabase(database.name));

  it("answers 503 with Retry-After once the database's port is closed, not 500", async () => {
    const relay = await startPostgresRelay(database.url);
    const server = await startTestServer({
      database: { name: database.name, url: relay.through(database.url) },
    });
    try {
      const acme = await server.token("acme");
      expect((await server.call("GET", "/api/wallets", { token: acme })).status).toBe(200);
      await relay.stop();
      for (const path of ["/api/currencies/rates", "/api/wallets"]) {
        const response = await server.call("GET", path, { token: acme });
        expect(response.status, path).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect(response.body).toEqual(unavailable);
      }
    } finally {
      await server.close();
    }
  });

  it("answers 503 with Retry-After when its connections are terminated and new ones refused", async () => {
    const server = await startTestServer({ database });
    const admin = new pg.Client({ connectionString: database.url.replace(/\/[^/?]+(\?|$)/, "/postgres$1") });
    await admin.connect();
    try {
      const acme = await server.token("acme");
      expect((await server.call("GET", "/api/wallets", { token: acme })).status).toBe(200);
      await admin.query(`alter database "${database.name}" allow_connections false`);
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [
        database.name,
      ]);
      for (const path of ["/api/currencies/rates", "/api/wallets", "/api/currencies/rates"]) {
        const response = await server.call("GET", path, { token: acme });
        expect(response.status, path).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect(response.body).toEqual(unavailable);
      }
      // A transfer runs on a pooled connection of its own (past the ORM): the same answer, and
      // once the database takes connections again the pool serves transfers again.
      const transfer = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" };
      const refused = await server.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(refused.body).toEqual(unavailable);
      // The other doors give the same retryable refusal in their own shapes, not an internal error.
      const trpc = await server.call("GET", "/trpc/wallets", { token: acme });
      expect(trpc.status).toBe(503);
      expect(trpc.body.error).toMatchObject({
        message: unavailable.message,
        data: { code: "SERVICE_UNAVAILABLE", purseCode: "DATABASE_UNAVAILABLE" },
      });
      const graphql = await server.call("POST", "/graphql", {
        token: acme,
        body: { query: "{ wallets { id } }" },
      });
      expect(graphql.body.errors?.[0]).toMatchObject({
        message: unavailable.message,
        extensions: { code: "DATABASE_UNAVAILABLE", status: 503 },
      });
      await admin.query(`alter database "${database.name}" allow_connections true`);
      const moved = await server.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
      expect(moved.status).toBe(200);
    } finally {
      await admin.query(`alter database "${database.name}" allow_connections true`);
      await admin.end();
      await server.close();
    }
  });
});
