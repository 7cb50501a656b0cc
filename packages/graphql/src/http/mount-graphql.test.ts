import { createTestEngine, type TestEngine } from "@purse/testing";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphiqlPolicy } from "../graphiql/graphiql-assets.ts";
import type { GraphQLDoorOptions } from "../yoga.ts";
import { mountGraphQL } from "./mount-graphql.ts";

/** The embedded demo's options (the server's graphql-door-options.ts), and a database's or production's. */
const demo: GraphQLDoorOptions = { production: false, openIntrospection: true, graphiql: true };
const database: GraphQLDoorOptions = { production: false, openIntrospection: false, graphiql: false };
const production: GraphQLDoorOptions = { production: true, openIntrospection: false, graphiql: false };

describe("GraphiQL from Purse's own files", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  async function serve(options: GraphQLDoorOptions) {
    const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await mountGraphQL(app, engine.deps, options);
    await app.ready();
    return app;
  }

  const browser = { accept: "text/html,application/xhtml+xml" };

  it("answers a browser's GET /graphql with a page that runs no inline script and loads only its own files", async () => {
    const app = await serve(demo);
    const page = await app.inject({ url: "/graphql", headers: browser });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toBe(graphiqlPolicy);
    expect(directive(graphiqlPolicy, "script-src")).toBe("'self'");
    expect(directive(graphiqlPolicy, "worker-src")).toBe("'self'");
    expect(directive(graphiqlPolicy, "connect-src")).toBe("'self'");
    // Every script is a same-origin file, but the options block, which is JSON data and never runs.
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((match) => match[1] ?? "");
    expect(scripts).toEqual([
      ' type="application/json" id="graphiql-options"',
      ' src="/graphql/ide/graphiql.js"',
    ]);
    const references = [...page.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1] ?? "");
    expect(references.sort()).toEqual([
      "/graphql/ide/favicon.ico",
      "/graphql/ide/graphiql.css",
      "/graphql/ide/graphiql.js",
    ]);
    for (const url of references) {
      const file = await app.inject({ url });
      expect(file.statusCode, url).toBe(200);
      expect(file.headers["content-security-policy"]).toBe(graphiqlPolicy);
      expect(file.body).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/);
    }
  });

  it("serves Monaco's workers as files, revalidated by ETag, and nothing but its own names", async () => {
    const app = await serve(demo);
    for (const name of ["editor.worker.js", "json.worker.js", "graphql.worker.js"]) {
      const worker = await app.inject({ url: `/graphql/ide/${name}` });
      expect(worker.statusCode, name).toBe(200);
      expect(worker.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      // A worker's policy is its own answer's.
      expect(worker.headers["content-security-policy"]).toBe(graphiqlPolicy);
      const etag = String(worker.headers["etag"]);
      expect(worker.headers["cache-control"]).toBe("no-cache");
      const again = await app.inject({ url: `/graphql/ide/${name}`, headers: { "if-none-match": etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe("");
    }
    for (const url of ["/graphql/ide/missing.js", "/graphql/ide/..%2F..%2Fpackage.json", "/graphql/ide/"]) {
      const refused = await app.inject({ url });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    }
  });

  it("serves neither the page nor its files with a DATABASE_URL or in production", async () => {
    for (const options of [database, production]) {
      const app = await serve(options);
      const page = await app.inject({ url: "/graphql", headers: browser });
      expect(page.headers["content-type"] ?? "").not.toMatch(/text\/html/);
      expect(page.headers["content-security-policy"]).toBeUndefined();
      expect((await app.inject({ url: "/graphql/ide/graphiql.js" })).statusCode).toBe(404);
    }
  });
});

/** The sources of one directive of a Content-Security-Policy. */
function directive(policy: string, name: string): string | undefined {
  const found = policy.split(";").find((part) => part.trim().startsWith(`${name} `));
  return found?.trim().slice(name.length + 1);
}
