import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

describe("POST /token and /token/revoke", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  });
  afterAll(() => api.close());

  it("issues a bearer token for client credentials sent as JSON", async () => {
    const response = await api.call("POST", "/token", {
      body: {
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
        scope: "api",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token_type: "Bearer",
      expires_in: 2592000,
      access_token: expect.any(String),
    });
    expect(Object.keys(response.body)).not.toContain("status");
  });

  it("accepts form-encoded bodies and HTTP Basic client authentication", async () => {
    const form = await api.call("POST", "/token", {
      body: "grant_type=client_credentials&client_id=bolt&client_secret=bolt-secret&scope=api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    const basic = await api.call("POST", "/token", {
      body: { grant_type: "client_credentials" },
      headers: { authorization: `Basic ${Buffer.from("cafe:cafe-secret").toString("base64")}` },
    });
    expect(basic.status).toBe(200);
  });

  it.each([
    [{ grant_type: "client_credentials", client_id: "acme", client_secret: "wrong" }, 401, "invalid_client"],
    [{ grant_type: "client_credentials", client_id: "nobody", client_secret: "x" }, 401, "invalid_client"],
    [{ grant_type: "client_credentials" }, 401, "invalid_client"],
    [
      { grant_type: "password", client_id: "acme", client_secret: "acme-secret" },
      400,
      "unsupported_grant_type",
    ],
    [{ client_id: "acme", client_secret: "acme-secret" }, 400, "invalid_request"],
    [
      { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret", scope: "admin" },
      400,
      "invalid_scope",
    ],
  ])("answers %o with RFC 6749 error %s %s", async (body, status, error) => {
    const response = await api.call("POST", "/token", { body });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error });
  });

  it("revokes a token so that it no longer authenticates", async () => {
    const token = await api.token("acme");
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(200);
    expect((await api.call("POST", "/token/revoke", { body: { token } })).status).toBe(200);
    const after = await api.call("GET", "/api/wallets", { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ status: false, message: "Unauthorized" });
    expect((await api.call("POST", "/token/revoke", { body: { token: "never-issued" } })).status).toBe(200);
  });

  it("refuses missing, malformed and unknown bearer tokens with 401 Unauthorized", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Basic abc" },
      { authorization: "Bearer nope" },
    ];
    for (const headers of attempts) {
      const response = await api.call("GET", "/api/wallets", { headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: false, message: "Unauthorized" });
    }
  });
});
