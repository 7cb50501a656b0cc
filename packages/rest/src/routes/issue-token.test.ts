import { type CallResult, type RestHarness, shapeOf, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Issued {
  token_type: string;
  expires_in: number;
  access_token: string;
}

const form = { "content-type": "application/x-www-form-urlencoded" };
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
});

describe("POST /token", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  function expectIssued(response: CallResult<Issued>): void {
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({
      token_type: "string",
      expires_in: "number",
      access_token: "string",
    });
    expect(response.body.token_type).toBe("Bearer");
    expect(response.body.expires_in).toBe(2592000);
    expect(response.headers.get("cache-control")).toBe("no-store");
  }

  it("issues a bearer token for client credentials sent as JSON, without the envelope", async () => {
    const response = await api.call<Issued>("POST", "/token", {
      body: {
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
        scope: "api",
      },
    });
    expectIssued(response);
    const wallets = await api.call("GET", "/api/wallets", { token: response.body.access_token });
    expect(wallets.status).toBe(200);
  });

  it("accepts form-encoded bodies (RFC 6749) and HTTP Basic client authentication (2.3.1)", async () => {
    expectIssued(
      await api.call<Issued>("POST", "/token", {
        body: "grant_type=client_credentials&client_id=bolt&client_secret=bolt-secret&scope=api",
        headers: form,
      }),
    );
    expectIssued(
      await api.call<Issued>("POST", "/token", {
        body: "grant_type=client_credentials",
        headers: { ...form, ...basic("cafe", "cafe-secret") },
      }),
    );
    expectIssued(
      await api.call<Issued>("POST", "/token", {
        body: { grant_type: "client_credentials" },
        headers: basic("acme", "acme-secret"),
      }),
    );
  });

  it("answers a wrong secret with 401 {error: invalid_client}, telling Basic clients how to authenticate", async () => {
    const json = await api.call("POST", "/token", {
      body: { grant_type: "client_credentials", client_id: "acme", client_secret: "wrong" },
    });
    expect(json.status).toBe(401);
    expect(json.body).toEqual({ error: "invalid_client" });
    const viaBasic = await api.call("POST", "/token", {
      body: "grant_type=client_credentials",
      headers: { ...form, ...basic("acme", "wrong") },
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.body).toEqual({ error: "invalid_client" });
    expect(viaBasic.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it.each([
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
    [
      { grant_type: ["client_credentials"], client_id: "acme", client_secret: "acme-secret" },
      400,
      "invalid_request",
    ],
  ])("answers %o with %s {error: %s}", async (body, status, error) => {
    const response = await api.call("POST", "/token", { body });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error });
  });

  it("answers a malformed or unsupported body with 400 {error: invalid_request}", async () => {
    const attempts: [string, string][] = [
      ["{grant_type", "application/json"],
      ["grant_type=client_credentials", "text/plain"],
    ];
    for (const [body, contentType] of attempts) {
      const response = await api.call("POST", "/token", { body, headers: { "content-type": contentType } });
      expect(response.status, contentType).toBe(400);
      expect(response.body).toEqual({ error: "invalid_request" });
    }
  });
});

describe("POST /token/revoke", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  it("makes the token unusable at once; other tokens keep working", async () => {
    const token = await api.token("acme");
    const other = await api.token("acme");
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(200);
    const revoked = await api.call("POST", "/token/revoke", {
      body: { token, token_type_hint: "access_token" },
    });
    expect(revoked.status).toBe(200);
    const after = await api.call("GET", "/api/wallets", { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
    expect((await api.call("GET", "/api/wallets", { token: other })).status).toBe(200);
  });

  it("accepts the form-encoded body of RFC 7009", async () => {
    const token = await api.token("bolt");
    const revoked = await api.call("POST", "/token/revoke", { body: `token=${token}`, headers: form });
    expect(revoked.status).toBe(200);
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(401);
  });

  it("answers 200 for unknown and already revoked tokens (RFC 7009 2.2)", async () => {
    const token = await api.token("cafe");
    for (const candidate of ["never-issued", token, token]) {
      const response = await api.call("POST", "/token/revoke", { body: { token: candidate } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({});
    }
  });

  it("answers a request without a token with 400 {error: invalid_request}", async () => {
    const response = await api.call("POST", "/token/revoke", { body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "invalid_request" });
  });
});
