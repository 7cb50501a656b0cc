import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startEmbeddedServer, type TestServer } from "../support/test-server.ts";

const screenshot = fileURLToPath(new URL("../../docs/graphiql.png", import.meta.url));

/** Monaco draws spaces as no-break spaces and one line per element; this is the text a reader sees. */
const visibleText = (text: string | null) => (text ?? "").replaceAll("\u00a0", " ").replace(/\s+/g, " ");

/**
 * GraphiQL as a developer meets it on `npm start` (the embedded demo, the only place it is
 * served), in a browser that can reach nothing but Purse: every other origin is aborted.
 */
describe("GraphiQL in a browser with every origin but Purse's blocked", { timeout: 90_000 }, () => {
  let api: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const blocked: string[] = [];
  const violations: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    api = await startEmbeddedServer();
    token = await api.token("acme");
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
    context.setDefaultTimeout(20_000);
    const origin = new URL(api.url).origin;
    // Offline but for Purse: a CDN, a font service or an icon host would be refused here.
    await context.route("**/*", (route) => {
      if (new URL(route.request().url()).origin === origin) return route.continue();
      blocked.push(route.request().url());
      return route.abort("blockedbyclient");
    });
    page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`securitypolicyviolation ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (/securitypolicyviolation|Content Security Policy/i.test(text)) violations.push(text);
      else errors.push(text);
    });
    page.on("pageerror", (error) => errors.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const headerEditor = () =>
    page.getByRole("region", { name: "Headers" }).getByRole("code").filter({ visible: true });
  const result = () => page.getByRole("region", { name: "Result Window" });

  it("loads under its strict policy from Purse's own files and opens on the header editor", async () => {
    const response = await page.goto(`${api.url}/graphql`);
    const headers = response?.headers() ?? {};
    expect(headers["content-security-policy"]).toContain("script-src 'self';");
    expect(headers["content-security-policy"]).toContain("default-src 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    await page.getByRole("button", { name: /^Execute query/ }).waitFor();
    await headerEditor().waitFor();
    // The schema loaded (introspection is open on the demo): the documentation explorer lists Query.
    await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
    await page.getByText("Query", { exact: true }).first().waitFor();
    await page.getByRole("button", { name: "Hide Documentation Explorer" }).click();
  });

  it("runs a query with the bearer token typed into the header editor and shows the caller's own wallets", async () => {
    await headerEditor().click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${token}` }));
    await page.keyboard.press("Home");
    // The page opens on `{ wallets { number amount currency { code } } }` (graphiql-page.ts).
    const query = page.getByRole("region", { name: "Operation Editor" });
    expect(visibleText(await query.textContent())).toContain("wallets { number amount currency { code } }");
    const sent = page.waitForRequest(
      (request) => request.method() === "POST" && (request.postData() ?? "").includes("wallets"),
    );
    await page.getByRole("button", { name: /^Execute query/ }).click();
    expect((await sent).headers()["authorization"]).toBe(`Bearer ${token}`);

    const wallets = await api.call("GET", "/api/wallets", { token });
    const own = (wallets.body.data as { number: string; amount: string }[]).map((wallet) => wallet.number);
    expect(own.length).toBeGreaterThan(1);
    await expect.poll(async () => visibleText(await result().textContent())).toContain(`"${own.at(-1)}"`);
    const shown = visibleText(await result().textContent());
    for (const number of own) expect(shown).toContain(`"number": "${number}"`);
    expect(shown).not.toContain('"errors"');
    // bolt's and cafe's wallets (fixtures/demo.json) are not the caller's.
    expect(shown).not.toMatch(/U100000020|U100000030/);

    // The token is not kept in web storage (shouldPersistHeaders: false).
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(token);

    // The token is masked in the picture (a test server's, but a token all the same).
    const tokenText = headerEditor()
      .locator(".view-line span span")
      .filter({ hasText: /\w/ })
      .filter({ hasNotText: "Authorization" });
    await page.screenshot({ path: screenshot, mask: [tokenText], maskColor: "#c8ccd4" });
  });

  it("asked nothing of another origin and broke no policy", () => {
    expect(blocked).toEqual([]);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
