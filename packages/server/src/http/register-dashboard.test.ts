import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardPolicy, registerDashboard } from "./register-dashboard.ts";

describe("the dashboard's files at /dashboard", () => {
  let built: string;
  beforeAll(async () => {
    built = await mkdtemp(join(tmpdir(), "purse-dashboard-"));
    await mkdir(join(built, "assets"));
    await writeFile(
      join(built, "index.html"),
      '<!doctype html><script type="module" src="/dashboard/assets/app-1a2b.js"></script>',
    );
    await writeFile(join(built, "assets", "app-1a2b.js"), "console.log('dashboard')");
    await writeFile(join(built, "assets", "app-1a2b.css"), "body{}");
  });
  afterAll(() => rm(built, { recursive: true, force: true }));

  async function serve(directory: string | undefined) {
    const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    registerDashboard(app, directory);
    await app.ready();
    return app;
  }

  it("answers the page at /dashboard and /dashboard/ under the strict policy, revalidated", async () => {
    const app = await serve(built);
    for (const url of ["/dashboard", "/dashboard/"]) {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(page.headers["content-security-policy"]).toBe(dashboardPolicy);
      expect(page.body).toContain("/dashboard/assets/app-1a2b.js");
    }
    expect(dashboardPolicy).not.toContain("unsafe");
    expect(dashboardPolicy).toContain("script-src 'self'");
    expect(dashboardPolicy).toContain("frame-ancestors 'none'");
  });

  it("serves the hashed assets for a year with their types, and nothing outside assets/", async () => {
    const app = await serve(built);
    const script = await app.inject({ url: "/dashboard/assets/app-1a2b.js" });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.body).toBe("console.log('dashboard')");
    const style = await app.inject({ url: "/dashboard/assets/app-1a2b.css" });
    expect(style.headers["content-type"]).toBe("text/css; charset=utf-8");
    for (const url of [
      "/dashboard/assets/missing.js",
      "/dashboard/assets/..%2Findex.html",
      "/dashboard/assets/%2e%2e%2f%2e%2e%2fpackage.json",
    ]) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });

  it("says how to build it when the build is missing: a page, not a 500", async () => {
    const app = await serve(join(built, "not-there"));
    const page = await app.inject({ url: "/dashboard" });
    expect(page.statusCode).toBe(503);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toBe(dashboardPolicy);
    expect(page.body).toContain("The dashboard has not been built");
    expect(page.body).toContain("npm run build");
    expect((await app.inject({ url: "/dashboard/assets/app-1a2b.js" })).statusCode).toBe(404);
  });
});
