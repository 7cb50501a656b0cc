import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const specPaths = [
  "/token",
  "/token/revoke",
  "/api/processing/checkout",
  "/api/processing/pay",
  "/api/transaction/transfer",
  "/api/vouchers/activation/confirm",
  "/api/vouchers/activation/info",
  "/api/transactions/histories",
  "/api/transaction/show",
  "/api/wallets",
  "/api/wallet-exists",
  "/api/wallets/search/{wallet_number}",
  "/api/currencies/rates",
  // Beyond the specification: read endpoints existing clients call.
  "/api/currencies",
  "/api/user/me",
  // Beyond the specification: vouchers clients buy and list.
  "/api/vouchers",
  "/api/vouchers/buy",
  "/api/vouchers/confirm",
];

describe("the API's surface", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  });
  afterAll(() => api.close());

  it("describes every path in an OpenAPI 3.1 document", async () => {
    const response = await api.call("GET", "/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\./);
    const validation = await new Validator().validate(response.body);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(Object.keys(response.body.paths).sort()).toEqual([...specPaths].sort());
    // The reference page's curl lines and generated clients need the host: BASE_URL.
    expect(response.body.servers).toEqual([expect.objectContaining({ url: api.url })]);
    const transfer = response.body.paths["/api/transaction/transfer"].post;
    expect(transfer.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(transfer.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "422"]));
    expect(Object.keys(transfer.requestBody.content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["wallet_from", "wallet_to", "amount", "payment_id", "description"]),
    );
  });

  it("serves a reference page whose scripts come from this server, not a CDN", async () => {
    const response = await fetch(`${api.url}/docs/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const sources = [...html.matchAll(/src="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).not.toMatch(/^(https?:)?\/\//);
    // Only Purse's documentation: the vendor's toolbar (deploy offer), AI agent and MCP prompt are off.
    expect(html).toMatch(/"showDeveloperTools":\s*"never"/);
    expect(html).toMatch(/"agent":\s*\{\s*"disabled":\s*true\s*\}/);
    expect(html).toMatch(/"mcp":\s*\{\s*"disabled":\s*true\s*\}/);
  });

  it("answers unknown paths, malformed JSON and odd content types in the contract's error shape", async () => {
    expect(await api.call("GET", "/api/nothing-here")).toEqual({
      status: 404,
      body: { status: false, message: "Not found" },
    });
    const token = await api.token("acme");
    const malformed = await api.call("POST", "/api/transaction/transfer", { token, body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.status).toBe(false);
    const text = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: "amount=1",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.body.status).toBe(false);
    const empty = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: "",
      headers: { "content-type": "application/json" },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("This value should not be blank.");
  });

  it("reports health and readiness", async () => {
    expect(await api.call("GET", "/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    const ready = await api.call("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: "ok", redis: "ok" });
  });

  it("exposes Prometheus metrics with per-route latency", async () => {
    await api.call("GET", "/api/currencies/rates");
    const response = await fetch(`${api.url}/metrics`);
    const text = await response.text();
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(text).toMatch(
      /purse_http_request_duration_seconds_count\{method="GET",route="\/api\/currencies\/rates",status="200"\} \d+/,
    );
    expect(text).toContain("purse_process_cpu_user_seconds_total");
  });
});
