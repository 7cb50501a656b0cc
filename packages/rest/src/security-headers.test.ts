import fastifyHelmet from "@fastify/helmet";
import Fastify, { type FastifyReply } from "fastify";
import { describe, expect, it } from "vitest";
import { payPageHelmet } from "./pay-page/page-security.ts";
import { registerPageSecurity, registerSecurityHeaders } from "./security-headers.ts";

/** The headers an answer carries, but the ones fastify adds itself. */
async function headersOf(app: ReturnType<typeof Fastify>, url: string) {
  const response = await app.inject({ method: "GET", url });
  const { date: _date, "content-length": _length, connection: _connection, ...rest } = response.headers;
  return rest;
}

/** An app with helmet registered as Purse registered it per request before the headers were computed once. */
async function helmetPerRequest(
  strictTransportSecurity: false | { maxAge: number; includeSubDomains: boolean },
) {
  const app = Fastify();
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: false,
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity,
  });
  return app;
}

describe("security headers computed once", () => {
  for (const production of [false, true]) {
    it(`${production ? "production" : "development"}: every answer carries exactly the headers helmet set per request`, async () => {
      const strictTransportSecurity = production ? { maxAge: 31_536_000, includeSubDomains: true } : false;
      const before = await helmetPerRequest(strictTransportSecurity);
      const after = Fastify();
      registerSecurityHeaders(after, { production });
      for (const app of [before, after]) app.get("/plain", async () => ({ ok: true }));
      for (const url of ["/plain", "/no/such/path"]) {
        const expected = await headersOf(before, url);
        expect(await headersOf(after, url)).toEqual(expected);
        expect(expected["x-frame-options"]).toBe("DENY");
        expect(expected["strict-transport-security"] !== undefined).toBe(production);
      }
    });
  }

  it("the hosted page's scope: the same headers as before, its policy with a fresh nonce per answer", async () => {
    const nonceless = (policy: unknown) => String(policy).replace(/'nonce-[0-9a-f]+'/g, "'nonce'");
    const page = async (_request: unknown, reply: FastifyReply) => ({ nonce: reply.cspNonce?.script });
    const before = await helmetPerRequest(false);
    before.get("/page", payPageHelmet, page);
    const after = Fastify();
    registerSecurityHeaders(after, { production: false });
    after.get("/plain", async () => ({ ok: true }));
    await after.register(async (scope) => {
      await registerPageSecurity(scope, { production: false });
      scope.get("/page", payPageHelmet, page);
    });
    const expected = await headersOf(before, "/page");
    const first = await headersOf(after, "/page");
    const second = await headersOf(after, "/page");
    expect({ ...first, "content-security-policy": nonceless(first["content-security-policy"]) }).toEqual({
      ...expected,
      "content-security-policy": nonceless(expected["content-security-policy"]),
    });
    expect(first["content-security-policy"]).toMatch(/'nonce-[0-9a-f]{32}'/);
    expect(second["content-security-policy"]).not.toBe(first["content-security-policy"]);
    // Outside the page's scope, no policy and no nonce.
    expect((await headersOf(after, "/plain"))["content-security-policy"]).toBeUndefined();
  });
});
