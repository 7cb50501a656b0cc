import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Every answer of the server says: never frame me, never send my address on (the page's address
 * holds the checkout token), never guess my content type. The hosted page adds a strict policy
 * of its own; the API reference keeps working without it.
 */
const everywhere = {
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

describe("security headers on every answer", () => {
  let api: TestServer;
  let checkoutUrl: string;
  beforeAll(async () => {
    api = await startTestServer();
    checkoutUrl = (await createCheckout(api, { url: "https://shop.example" }, "1.00")).url;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const answers: [string, () => Promise<Response>][] = [
    ["REST JSON", () => fetch(`${api.url}/api/currencies/rates`)],
    ["a REST error", () => fetch(`${api.url}/api/wallets`)],
    [
      "the token endpoint",
      () =>
        fetch(`${api.url}/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=client_credentials&client_id=acme&client_secret=wrong",
        }),
    ],
    [
      "GraphQL",
      () =>
        fetch(`${api.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ __typename }" }),
        }),
    ],
    ["tRPC", () => fetch(`${api.url}/trpc/rates`)],
    ["the hosted page", () => fetch(checkoutUrl)],
    ["an unknown payment link", () => fetch(`${new URL(checkoutUrl).origin}/pay/chk_unknown`)],
    ["the page script", () => fetch(`${api.url}/pay-assets/pay.js`)],
    ["health", () => fetch(`${api.url}/healthz`)],
    ["an unknown path", () => fetch(`${api.url}/no/such/path`)],
    ["the API reference", () => fetch(`${api.url}/docs`)],
  ];

  it.each(answers)("%s", async (_name, call) => {
    const response = await call();
    await response.arrayBuffer();
    expect(
      Object.fromEntries(Object.keys(everywhere).map((name) => [name, response.headers.get(name)])),
    ).toEqual(everywhere);
    expect(response.status).toBeLessThan(500);
  });

  it("the hosted page: a strict policy with a fresh nonce, no caching", async () => {
    const first = await fetch(checkoutUrl);
    const html = await first.text();
    const policy = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "missing";
    expect(policy.split(";").map((part) => part.trim())).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
      ]),
    );
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    // Every script of the page carries this answer's nonce; there is no inline script at all.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(new RegExp(`nonce="${nonce}".*src=`));
    expect(first.headers.get("cache-control")).toBe("no-store");
    const second = await fetch(checkoutUrl);
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
  });

  it("JSON answers and the API reference keep no page policy of their own", async () => {
    const docs = await fetch(`${api.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-security-policy")).toBeNull();
    const rates = await fetch(`${api.url}/api/currencies/rates`);
    expect(rates.headers.get("content-security-policy")).toBeNull();
  });
});
