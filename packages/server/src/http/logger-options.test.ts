import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { AccessLog, censorSecretFields, loggerOptions, requestLoggerOptions } from "./logger-options.ts";

/** A server at `level` whose one route says whether its request logger is the server's own. */
async function sharesLogger(level: string): Promise<{ shared: boolean; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({
    logger: { ...loggerOptions(level), stream },
    ...requestLoggerOptions(level),
    logController: new AccessLog(),
  });
  app.get("/", async (request) => {
    request.log.info(
      {
        password: "p-secret",
        nested: { client_secret: "c-secret", deeper: { Token: "t-secret", kept: "visible" } },
        list: [{ secret: "l-secret" }],
      },
      "a line with credentials",
    );
    return { shared: request.log === app.log };
  });
  const response = await app.inject({ method: "GET", url: "/" });
  await app.close();
  return { shared: response.json<{ shared: boolean }>().shared, lines };
}

describe("a request's logger", () => {
  it("at LOG_LEVEL=silent is the server's own: no child logger per request, nothing written", async () => {
    expect(await sharesLogger("silent")).toEqual({ shared: true, lines: [] });
  });

  it("at any other level is a child carrying the request id", async () => {
    const { shared, lines } = await sharesLogger("info");
    expect(shared).toBe(false);
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0] ?? "{}")).toHaveProperty("reqId");
  });

  it("writes one line per request, when it is answered, with its route and status", async () => {
    const { lines } = await sharesLogger("info");
    const access = lines.map((line) => JSON.parse(line)).filter((line) => line.req);
    expect(access).toEqual([
      expect.objectContaining({
        msg: "request completed",
        req: expect.objectContaining({ method: "GET", url: "/" }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it("censors fields named as credentials, two levels down, without touching the logged object", async () => {
    const { lines } = await sharesLogger("info");
    const line = lines.find((each) => each.includes("a line with credentials")) ?? "";
    expect(JSON.parse(line)).toMatchObject({
      password: "[redacted]",
      nested: { client_secret: "[redacted]", deeper: { Token: "[redacted]", kept: "visible" } },
      list: [{ secret: "[redacted]" }],
    });
    expect(line).not.toMatch(/[plct]-secret/);
  });

  it("leaves the caller's object as it was, and does not walk a library's instances", () => {
    const logged = {
      password: "x",
      nested: { token: "y" },
      error: Object.assign(new Error("e"), { token: "z" }),
    };
    const censored = censorSecretFields(logged);
    expect(censored).toMatchObject({ password: "[redacted]", nested: { token: "[redacted]" } });
    expect(logged).toMatchObject({ password: "x", nested: { token: "y" } });
    expect(censored["error"]).toBe(logged.error);
  });
});
