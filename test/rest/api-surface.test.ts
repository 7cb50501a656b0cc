import { checkoutSignature } from "@purse/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * What the whole `purse serve` stack adds around the REST door, from its configuration: the
 * document's host, the payment links' base, health and metrics. The REST behaviour itself is
 * tested once, beside the routes (packages/rest).
 */
describe("the API's surface as `purse serve` configures it", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { PAY_URL: "https://pay.example/pay" } });
  });
  afterAll(() => api.close());

  it("names BASE_URL as the OpenAPI document's server", async () => {
    const response = await api.call("GET", "/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\./);
    // The reference page's curl lines and generated clients need the host.
    expect(response.body.servers).toEqual([expect.objectContaining({ url: api.url })]);
  });

  it("makes checkout links under PAY_URL, valid for 30 minutes", async () => {
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "25.00", id: "order-1" };
    const started = Date.now();
    const response = await api.call("POST", "/api/processing/checkout", {
      body: {
        ...fields,
        signature: checkoutSignature(fields, "acme-form-token"),
        success_url: "https://shop.example/ok",
        cancel_url: "https://shop.example/cancel",
        status_url: "https://shop.example/hook",
        user_info: "payer-order-1",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.url).toMatch(/^https:\/\/pay\.example\/pay\/[A-Za-z0-9_-]{20,}$/);
    const expires = Date.parse(`${response.body.data.expired_at.replace(" ", "T")}Z`);
    expect(expires - started).toBeGreaterThan(29 * 60_000);
    expect(expires - started).toBeLessThan(31 * 60_000);
  });

  it("reports health and readiness", async () => {
    const health = await api.call("GET", "/healthz");
    expect([health.status, health.body]).toEqual([200, { status: "ok" }]);
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
