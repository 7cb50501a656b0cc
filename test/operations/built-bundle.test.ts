import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCheckout, dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { startServe, waitUntil } from "./purse-process.ts";

const bundled = existsSync(new URL("../../packages/server/dist/bundle/main.js", import.meta.url));
/** What every spawned `purse` of the suite runs (vitest.config.ts), said here for these tests' sake. */
const builtCode = { PURSE_SOURCE: "0" };

/**
 * The bundled `purse` (packages/server/scripts/bundle.mjs), as the image and `npm start` after a
 * build run it: every door and the files it reads at run time (the demo fixture, the API
 * reference's script, the captcha widget) are where the bundle looks for them. The test run's
 * global set-up builds it where a checkout was never built (test/support/global-setup.ts).
 */
describe("the bundled build", () => {
  let database: SeededDatabase;
  let server: SpawnedServer;
  let token: string;

  beforeAll(async () => {
    expect(bundled, "packages/server/dist/bundle/main.js: the global set-up builds it").toBe(true);
    database = await createSeededDatabase();
    server = await spawnPurseServe(database, builtCode);
    const answer = await callerFor(server.url)("POST", "/token", {
      body: { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret" },
    });
    token = answer.body.access_token as string;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (database) await dropDatabase(database.name);
  });

  it("is what bin/purse.js runs", async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const { stdout, scripts } = await scriptsRun(database, ["--help"]);
    expect(stdout).toContain("serve");
    const ours = scripts.filter((url) => url.includes("/packages/"));
    expect(ours.some((url) => url.includes("/packages/server/dist/bundle/"))).toBe(true);
    const elsewhere = ours.filter(
      (url) =>
        !url.includes("/packages/server/dist/bundle/") && !url.endsWith("/packages/server/bin/purse.js"),
    );
    expect(elsewhere).toEqual([]);
  });

  it("opens the database with the bundled MikroORM alone, not a second copy from node_modules", async () => {
    // MikroORM.init imported @mikro-orm/migrations (and a second @mikro-orm/core) from node_modules
    // when it did not recognise the bundle's Migrator by name: a third of a start (database.ts).
    const { scripts } = await scriptsRun(database, ["migrate"]);
    expect(scripts.some((url) => url.includes("/packages/server/dist/bundle/"))).toBe(true);
    expect(scripts.filter((url) => url.includes("/node_modules/@mikro-orm/"))).toEqual([]);
  });

  it("serves REST: a form-encoded transfer with a numeric payment_id moves money", async () => {
    const response = await fetch(`${server.url}/api/transaction/transfer`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "wallet_from=U100000010&wallet_to=U100000030&amount=1.00&payment_id=424242",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: true,
      data: { id: expect.any(Number), message: "Transfer completed successfully" },
    });
  });

  it("serves GraphQL, loaded on its first request", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await response.json()).toEqual({ data: { __typename: "Query" } });
  });

  it("serves tRPC", async () => {
    const response = await fetch(`${server.url}/trpc/wallets`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain("U100000010");
  });

  it("serves the hosted payment page of a signed checkout", async () => {
    const checkout = await createCheckout({ call: callerFor(server.url) }, { url: "https://shop.example" });
    const page = await fetch(checkout.url.replace(/^https?:\/\/[^/]+/, server.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<form");
  });

  it("serves the files it reads from packages at run time: the API reference's script, the captcha widget", async () => {
    const reference = await fetch(`${server.url}/docs/js/scalar.js`);
    expect(reference.status).toBe(200);
    expect((await reference.text()).length).toBeGreaterThan(10_000);
    const widget = await fetch(`${server.url}/pay-assets/altcha.js`);
    expect(widget.status).toBe(200);
    expect(await widget.text()).toContain("altcha");
  });

  it("serves the dashboard's build from packages/dashboard/dist, under its policy", async () => {
    const page = await fetch(`${server.url}/dashboard/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
  });

  it("prints its version from the bundle (packages/server/package.json, two levels above it)", async () => {
    const manifest = JSON.parse(
      await readFile(new URL("../../packages/server/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    const run = await purseCli(database, ["--version"], builtCode);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${manifest.version}\n`);
  });

  it("migrates and audits the database", async () => {
    expect((await purseCli(database, ["migrate"], builtCode)).code).toBe(0);
    const audit = await purseCli(database, ["audit"], builtCode);
    expect(audit.code).toBe(0);
  });

  it("starts the embedded default with its demo data (the fixture file found from the bundle)", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "purse-bundle-"));
    const serve = await startServe({ ...builtCode, PURSE_DATA_DIR: dataDir });
    try {
      await waitUntil(serve, "/readyz");
      const answer = await callerFor(serve.url)("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret" },
      });
      expect(answer.status).toBe(200);
      // `npm install && npm start` after a build: the dashboard is there too.
      expect((await fetch(`${serve.url}/dashboard`)).status).toBe(200);
    } finally {
      await serve.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The scripts a run of the built `purse <args>` executed, as V8's profiler names them (sampled every 100 µs). */
async function scriptsRun(
  database: SeededDatabase,
  args: string[],
): Promise<{ stdout: string; scripts: string[] }> {
  const profiles = await mkdtemp(join(tmpdir(), "purse-bundle-profile-"));
  try {
    const run = await purseCli(database, args, {
      ...builtCode,
      NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=${profiles}`,
    });
    expect(run.code).toBe(0);
    const [profile] = await readdir(profiles);
    const { nodes } = JSON.parse(await readFile(join(profiles, profile ?? ""), "utf8")) as {
      nodes: { callFrame: { url: string } }[];
    };
    return { stdout: run.stdout, scripts: [...new Set(nodes.map((node) => node.callFrame.url))] };
  } finally {
    await rm(profiles, { recursive: true, force: true });
  }
}
