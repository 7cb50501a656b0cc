import { checkoutSignature } from "@purse/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/** Refusals of the GraphQL and tRPC doors over real HTTP, each in its door's own error shape. */
describe("GraphQL and tRPC refuse oversized and hostile requests", () => {
  let api: TestServer;
  let token: string;
  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
  });
  afterAll(() => api.close());

  const megabyte = "x".repeat(1024 * 1024 + 1);

  it("GraphQL: a 1 MiB body is a 413 in GraphQL's error shape", async () => {
    const answer = await api.call("POST", "/graphql", {
      token,
      body: { query: `{ me { name } }`, x: megabyte },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ errors: [{ message: "Request body is larger than 65536 bytes." }] });
  });

  it("GraphQL: __proto__ keys and bad JSON are 400s in GraphQL's error shape", async () => {
    const poisoned = await api.call("POST", "/graphql", {
      token,
      body: '{"query":"{ me { name } }","__proto__":{"admin":true}}',
    });
    expect(poisoned.status).toBe(400);
    const invalid = "Request body is not valid JSON, or has a __proto__ or constructor.prototype key.";
    expect(poisoned.body).toEqual({ errors: [{ message: invalid }] });
    const broken = await api.call("POST", "/graphql", { token, body: '{"query": ' });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ errors: [{ message: invalid }] });
  });

  it.each([
    ['{"query": 123}'],
    ['{"query": ["{ me { name } }"]}'],
    ['{"query": "{ me { name } }", "variables": "x"}'],
    ['{"query": "{ me { name } }", "operationName": 1}'],
    ['{"query": "{ me { name } }", "extensions": []}'],
    ["[1, 2]"],
    ["7"],
  ])(
    "GraphQL: request parameters of the wrong type (%s) are a 400 in GraphQL's error shape",
    async (body) => {
      const answer = await api.call("POST", "/graphql", { token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0].message).not.toBe("Unexpected error.");
      expect(answer.body.errors[0].extensions?.code).not.toBe("INTERNAL_SERVER_ERROR");
    },
  );

  it("GraphQL: a list literal nested 5 000 deep is a 400 naming the limit", async () => {
    const query = `{ wallet(number: ${"[".repeat(5_000)}${"]".repeat(5_000)}) { id } }`;
    const answer = await api.call("POST", "/graphql", { token, body: { query } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toBe("Nesting limit of 16 exceeded.");
  });

  it("tRPC: a 1 MiB body is PAYLOAD_TOO_LARGE in tRPC's error envelope", async () => {
    const answer = await api.call("POST", "/trpc/transfer", { token, body: { description: megabyte } });
    expect(answer.status).toBe(413);
    expect(answer.body.error.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(answer.body.error.message).toBe("Request body is larger than 131072 bytes.");
  });

  it("tRPC: malformed JSON is tRPC's own BAD_REQUEST, in its envelope", async () => {
    const answer = await api.call("POST", "/trpc/transfer", { token, body: '{"walletFrom": ' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.code).toBe("BAD_REQUEST");
    expect(answer.body.error.data.purseCode).toBeNull();
  });

  it("tRPC: a batch of 3 000 calls is a BAD_REQUEST from tRPC itself", async () => {
    // "me" keeps the URL under Node's 16 KiB header limit, so the batch limit is what refuses it.
    const paths = Array.from({ length: 3_000 }, () => "me").join(",");
    const answer = await api.call("GET", `/trpc/${paths}?batch=1`, { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.code).toBe("BAD_REQUEST");
  });

  it("tRPC: an amount of 100 000 characters is a BAD_REQUEST before the engine parses it", async () => {
    const answer = await api.call("POST", "/trpc/transfer", {
      token,
      body: { walletFrom: "U100000010", walletTo: "U100000020", amount: `1.${"0".repeat(100_000)}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.code).toBe("BAD_REQUEST");
    expect(answer.body.error.data.purseCode).toBeNull();
  });

  it("tRPC: a wallet number of 33 characters is a BAD_REQUEST", async () => {
    const input = encodeURIComponent(JSON.stringify({ number: "U".repeat(33) }));
    const answer = await api.call("GET", `/trpc/wallet?input=${input}`, { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.code).toBe("BAD_REQUEST");
  });

  it("tRPC: reads JSON numbers exactly, as REST does, and refuses __proto__ keys", async () => {
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020" };
    const checkout = (amount: string, id: string, signed: { amount: string; id: string }) =>
      api.call("POST", "/trpc/checkout", {
        body:
          `{"walletTo":"U100000010","walletFrom":"U100000020","amount":${amount},"id":${id},` +
          `"userInfo":"payer-${id}","signature":"${checkoutSignature({ ...fields, ...signed }, "acme-form-token", "js", { amount: "number", id: "number" })}"}`,
      });
    // A double would make this 2, which the signature covers: the checkout must not be for 2.00.
    const rounded = await checkout("1.999999999999999999", "7001", { amount: "2", id: "7001" });
    expect(rounded.status).toBe(422);
    // 1e2 and 100 are one double: as ids they would be one idempotency key.
    const exponent = await checkout("5", "1e2", { amount: "5", id: "100" });
    expect(exponent.status).toBe(400);
    expect(exponent.body.error.data.code).toBe("BAD_REQUEST");
    const exact = await checkout("5", "7002", { amount: "5", id: "7002" });
    expect(exact.status).toBe(200);

    const poisoned = await api.call("POST", "/trpc/transfer", {
      token,
      body: '{"__proto__":{"x":1},"walletFrom":"U100000010","walletTo":"U100000020","amount":"1.00"}',
    });
    expect(poisoned.status).toBe(400);
    expect(poisoned.body.error.data.code).toBe("BAD_REQUEST");
    // REST's words for it (@purse/http-kernel's request-refusals.ts), in tRPC's envelope.
    expect(poisoned.body.error.message).toBe(
      "The body may not contain a __proto__ or constructor.prototype key.",
    );
  });

  it("tRPC: the router's own refusals on a tRPC path are in tRPC's envelope too, never REST's", async () => {
    for (const [path, status] of [
      ["/trpc", 404],
      ["/trpc/rates%E0%A4%A", 400],
      [`/trpc/${"me,".repeat(2_000)}me?batch=1`, 400],
    ] as const) {
      const answer = await api.call("GET", path, { token });
      expect(answer.status, path.slice(0, 40)).toBe(status);
      expect(answer.body.status, path.slice(0, 40)).toBeUndefined();
      expect(answer.body.error.data.code).toMatch(/^(NOT_FOUND|BAD_REQUEST)$/);
    }
    const rest = await api.call("GET", "/api/wallets%E0%A4%A", { token });
    expect(rest.body).toEqual({ status: false, message: expect.any(String), code: "BAD_REQUEST" });
  });

  it("tRPC still answers ordinary calls and single-call batches", async () => {
    const rates = await api.call("GET", "/trpc/rates", { token });
    expect(rates.status).toBe(200);
    const batch = await api.call("GET", "/trpc/rates,me?batch=1&input=%7B%7D", { token });
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(2);
  });
});
