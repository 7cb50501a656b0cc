import { existsSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { dropDatabase, sampleFixture } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";
import { runPurse } from "./purse-process.ts";

const bundled = existsSync(new URL("../../packages/server/dist/bundle-traced/main.js", import.meta.url));

/** Sentinels in the connection URLs: PostgreSQL (trust) and Redis (no password) accept and ignore them. */
const databasePassword = "db-pass-9f2c71";
const redisPassword = "redis-pass-4e81d0";
/** A merchant's webhook path that is theirs alone (some put a secret there). */
const merchantPath = "/merchant-path-6b0c2e";
const server = 2;

/** W3C trace context of a caller: version, trace id, parent span id, sampled. */
function traceparent(traceId: string, parentId: string): string {
  return `00-${traceId}-${parentId}-01`;
}

/**
 * Contract, row "Traces": with OTEL_EXPORTER_OTLP_ENDPOINT set, `purse serve` (a real process)
 * exports a span per request, a child of the caller's `traceparent`, with PostgreSQL, Redis, the
 * route lock and webhook deliveries as spans of their own, and no secret anywhere in them. Run on
 * the sources and, once `npm run build` has made it, on the bundle (pg and ioredis are patched as
 * they load; the traced bundle leaves them in node_modules for that, scripts/bundle.mjs).
 */
const layouts: { name: string; env: Record<string, string>; skip: boolean }[] = [
  // The one spawned `purse` of the suite that runs the TypeScript through tsx, as an unbuilt checkout does.
  { name: "the sources", env: { PURSE_SOURCE: "1" }, skip: false },
  { name: "the bundled build", env: { PURSE_SOURCE: "0" }, skip: !bundled },
];
for (const layout of layouts) {
  describe.skipIf(layout.skip)(`OpenTelemetry traces from ${layout.name}`, () => {
    let database: SeededDatabase;
    let receiver: OtlpReceiver;
    let site: MerchantSite;
    let serve: SpawnedServer;
    let accessToken = "";
    let checkoutToken = "";

    const transferTrace = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7" };
    const graphqlTrace = { traceId: "0af7651916cd43dd8448eb211c80319c", parentId: "b7ad6b7169203331" };
    const requestSpanOf = (traceId: string, route: string) =>
      receiver.spans().find((span) => span.traceId === traceId && span.attributes["http.route"] === route);
    const childrenOf = (parent: ReceivedSpan | undefined) =>
      receiver.spans().filter((span) => parent !== undefined && span.parentSpanId === parent.spanId);

    beforeAll(async () => {
      database = await createSeededDatabase();
      receiver = await startOtlpReceiver();
      site = await startMerchantSite();
      const databaseUrl = new URL(database.url);
      databaseUrl.password = databasePassword;
      serve = await spawnPurseServe(database, {
        ...layout.env,
        DATABASE_URL: databaseUrl.href,
        REDIS_URL: `redis://:${redisPassword}@127.0.0.1:6379`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      });
      const token = await fetch(`${serve.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: "acme",
          client_secret: "acme-secret",
        }),
      });
      accessToken = ((await token.json()) as { access_token: string }).access_token;
    }, 120_000);
    afterAll(async () => {
      await serve?.stop();
      await Promise.all([receiver?.close(), site?.close()]);
      if (database) await dropDatabase(database.name);
    });

    it("makes the request span of a REST transfer a child of the caller's traceparent", async () => {
      const transfer = await fetch(`${serve.url}/api/transaction/transfer`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "content-type": "application/json",
          traceparent: traceparent(transferTrace.traceId, transferTrace.parentId),
        },
        body: JSON.stringify({
          wallet_from: "U100000010",
          wallet_to: "U100000030",
          amount: "1.00",
          payment_id: "7001",
        }),
      });
      expect(transfer.status).toBe(200);
      await receiver.waitFor("transfer span", () =>
        Boolean(requestSpanOf(transferTrace.traceId, "/api/transaction/transfer")),
      );
      const request = requestSpanOf(transferTrace.traceId, "/api/transaction/transfer");
      expect(request).toMatchObject({
        name: "POST /api/transaction/transfer",
        kind: server,
        parentSpanId: transferTrace.parentId,
        attributes: { "http.request.method": "POST", "http.response.status_code": 200 },
      });
    });

    it("makes PostgreSQL, Redis and the route lock children of the transfer's request span", async () => {
      const request = requestSpanOf(transferTrace.traceId, "/api/transaction/transfer");
      const children = childrenOf(request);
      const statements = children.filter((span) => span.scope === "@opentelemetry/instrumentation-pg");
      expect(statements.map((span) => span.attributes["db.query.text"])).toEqual(
        expect.arrayContaining(["commit", expect.stringContaining("begin")]),
      );
      expect(statements.every((span) => span.attributes["db.namespace"] === database.name)).toBe(true);
      const redis = children.filter((span) => span.scope === "@opentelemetry/instrumentation-ioredis");
      expect(redis.length).toBeGreaterThan(0);
      // The command's name only: its arguments (keys, lock values) are not recorded.
      expect(redis.every((span) => /^[a-z]+$/.test(String(span.attributes["db.query.text"])))).toBe(true);
      expect(children.find((span) => span.name === "purse.route_lock")).toMatchObject({
        attributes: { "purse.route_lock.keys": 1 },
      });
      // Nothing of the transfer's trace hangs outside the request span.
      const orphans = receiver
        .spans()
        .filter(
          (span) => span.traceId === transferTrace.traceId && span !== request && !children.includes(span),
        );
      expect(orphans.map((span) => span.name)).toEqual([]);
    });

    it("traces a GraphQL query the same way", async () => {
      const query = await fetch(`${serve.url}/graphql`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "content-type": "application/json",
          traceparent: traceparent(graphqlTrace.traceId, graphqlTrace.parentId),
        },
        body: JSON.stringify({ query: "{ wallets { number } }" }),
      });
      expect(JSON.stringify(await query.json())).toContain("U100000010");
      await receiver.waitFor("GraphQL span", () => Boolean(requestSpanOf(graphqlTrace.traceId, "/graphql")));
      const request = requestSpanOf(graphqlTrace.traceId, "/graphql");
      expect(request).toMatchObject({
        name: "POST /graphql",
        kind: server,
        parentSpanId: graphqlTrace.parentId,
      });
      const statements = childrenOf(request).filter(
        (span) => span.scope === "@opentelemetry/instrumentation-pg",
      );
      expect(statements.map((span) => String(span.attributes["db.query.text"]))).toEqual(
        expect.arrayContaining([expect.stringContaining("from wallets")]),
      );
    });

    it("traces a webhook delivery by its receiver's host and port, not its URL", async () => {
      const checkout = await createCheckout(
        { call: callerFor(serve.url) },
        { url: `${site.url}${merchantPath}` },
      );
      checkoutToken = checkout.token;
      // The hosted page, its token in the path; then the payer's sign-in, a password in the body.
      expect((await fetch(`${serve.url}/pay/${checkout.token}?token=${checkout.token}`)).status).toBe(200);
      const paid = await fetch(`${serve.url}/api/processing/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" }),
      });
      expect(paid.status).toBe(200);
      await site.waitFor(`${merchantPath}/webhook`, 1);
      await receiver.waitFor("webhook delivery span", (spans) =>
        spans.some((span) => span.name === "purse.webhook.delivery"),
      );
      const delivery = receiver.spans().find((span) => span.name === "purse.webhook.delivery");
      expect(delivery).toMatchObject({
        scope: "purse",
        attributes: {
          "server.address": "127.0.0.1",
          "server.port": Number(new URL(site.url).port),
          "http.response.status_code": 200,
        },
      });
      await receiver.waitFor("hosted page span", () =>
        receiver.spans().some((span) => span.attributes["http.route"] === "/pay/:token"),
      );
      expect(receiver.spans().find((span) => span.attributes["http.route"] === "/pay/:token")).toMatchObject({
        attributes: { "url.path": "/pay/:token" },
      });
    });

    it("puts no secret, token or password in any span", async () => {
      // Malformed JSON quoting a secret: V8's SyntaxError message quotes the body around the fault.
      const malformed = await fetch(`${serve.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"grant_type": "client_credentials", "client_id": "bolt", "client_secret": bolt-secret}',
      });
      expect(malformed.status).toBe(400);
      await receiver.waitFor("refused token span", (spans) =>
        spans.some(
          (span) =>
            span.attributes["http.route"] === "/token" &&
            span.attributes["http.response.status_code"] === 400,
        ),
      );
      const secrets = [
        accessToken,
        checkoutToken,
        databasePassword,
        redisPassword,
        merchantPath,
        "Bearer",
        // V8 quotes ten characters of the body: the secret's first ten.
        "bolt-secre",
        ...fixtureSecrets(sampleFixture()),
      ];
      expect(secrets.every((secret) => secret.length >= 6)).toBe(true);
      const exported = receiver.rawExports();
      expect(exported.length).toBeGreaterThan(0);
      expect(secrets.filter((secret) => exported.includes(secret))).toEqual([]);
      // SQL parameters are never recorded, whatever they hold.
      expect(receiver.spans().filter((span) => "db.postgresql.values" in span.attributes)).toEqual([]);
    });
  });
}

describe("a collector that never answers", () => {
  let database: SeededDatabase;
  let silent: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    database = await createSeededDatabase();
    // Accepts the exporter's connection and never answers, as a hung collector would.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    if (database) await dropDatabase(database.name);
  });

  it("does not hold a stopping `purse serve` past 2 s for its last spans", async () => {
    const { port } = silent.address() as AddressInfo;
    const serve = await spawnPurseServe(database, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      // Spans wait in the batch until the shutdown flushes them (the default delay is 5 s).
      OTEL_BSP_SCHEDULE_DELAY: "60000",
    });
    // Refused without a token, and still a request span waiting in the batch.
    const answer = await fetch(`${serve.url}/api/currencies`);
    expect(answer.status).toBe(401);
    const stopping = Date.now();
    const code = await serve.stop();
    const tookMs = Date.now() - stopping;
    expect(code).toBe(0);
    // The exporter alone would wait its 10 s timeout (OTEL_EXPORTER_OTLP_TIMEOUT's default).
    expect(tookMs).toBeLessThan(6_000);
  }, 60_000);
});

describe("an OTEL_* value Purse cannot honour", () => {
  it("stops `purse serve` with one line naming the variable", async () => {
    const run = await runPurse(["serve"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      "purse: cannot start: OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf or http/json (Purse exports traces over OTLP/HTTP), not grpc",
    );
  });
});

const credentialFields = new Set([
  "client_secret",
  "form_token",
  "webhook_secret",
  "password",
  "voucher_code",
]);

/** Every credential the sample world holds: client secrets, form tokens, webhook secrets, passwords, voucher codes. */
function fixtureSecrets(fixture: unknown): string[] {
  if (Array.isArray(fixture)) return fixture.flatMap(fixtureSecrets);
  if (fixture === null || typeof fixture !== "object") return [];
  return Object.entries(fixture).flatMap(([key, value]) =>
    typeof value === "string" && credentialFields.has(key) ? [value] : fixtureSecrets(value),
  );
}
