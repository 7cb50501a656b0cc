import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * The scopes a declaration may state beyond one scope (`declaration/declare-operation.ts`), as
 * every door's mounter publishes them: `public`, anyone without a token (the rates).
 */
describe("declared scopes on every door", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  }, 60_000);
  afterAll(() => api.close());

  describe("public: anyone, with no token (the rates)", () => {
    it("answers REST without a token, and its document asks for none", async () => {
      const rates = await api.call("GET", "/api/currencies/rates");
      expect(rates.status).toBe(200);
      expect(rates.body.data[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(Number),
      });
      const document = await api.call("GET", "/openapi.json");
      const entry = document.body.paths["/api/currencies/rates"].get;
      expect(entry.security).toBeUndefined();
      expect(Object.keys(entry.responses)).toEqual(["200", "500", "503"]);
    });

    it("answers GraphQL without a token", async () => {
      const response = await api.call("POST", "/graphql", {
        body: { query: "{ rates { name group value } }" },
      });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.rates[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(String),
      });
    });

    it("answers tRPC without a token", async () => {
      const response = await api.call("GET", "/trpc/rates");
      expect(response.status).toBe(200);
      expect(response.body.result.data[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(String),
      });
    });
  });
});
