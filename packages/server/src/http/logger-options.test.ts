import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions, requestLoggerOptions } from "./logger-options.ts";

/** A server at `level` whose one route says whether its request logger is the server's own. */
async function sharesLogger(level: string): Promise<{ shared: boolean; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { ...loggerOptions(level), stream }, ...requestLoggerOptions(level) });
  app.get("/", async (request) => ({ shared: request.log === app.log }));
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
});
