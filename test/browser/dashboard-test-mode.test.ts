import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseCsv } from "@purse/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { buildDashboard, launchBrowser, pageProblems, signedInDashboard } from "../support/browser.ts";
import { createTestCheckout, openTestAccount, type TestAccount } from "../support/test-mode.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/**
 * Issue 38, the dashboard's part: the Test mode switch in Chromium against a real `purse serve`.
 * acme has live wallets (the sample world) and a test wallet with an open test checkout; with the
 * switch on the page shows the test data only, funds it, moves the test clock past the checkout's
 * expiry and sees it fail; with the switch off, live data again.
 */
describe("the dashboard's test mode, in a browser", { timeout: 120_000 }, () => {
  let api: TestServer;
  let browser: Browser;
  let acme: TestAccount;
  let bolt: TestAccount;
  const problems: string[][] = [];
  const order = `dash-test-${process.pid}`;

  const graphql = async (token: string, query: string) =>
    (await api.call<{ data?: unknown; errors?: unknown }>("POST", "/graphql", { token, body: { query } }))
      .body;

  async function open(
    viewport: { width: number; height: number },
    phone = false,
    login = "acme",
  ): Promise<Page> {
    const page = await signedInDashboard(browser, api.url, login, {
      viewport,
      phone,
      timeoutMs: 20_000,
      watch: (opened) => problems.push(pageProblems(opened, new URL(api.url).origin)),
    });
    await page.getByRole("region", { name: "Balances", exact: true }).locator("li.wallet").first().waitFor();
    return page;
  }

  const walletNumbers = (page: Page) =>
    page
      .getByRole("region", { name: "Balances", exact: true })
      .locator("li.wallet .wallet-number")
      .allInnerTexts();

  beforeAll(async () => {
    await buildDashboard();
    api = await startTestServer({
      env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000", PURSE_WEBHOOK_ALLOW_PRIVATE: "on", LOG_LEVEL: "error" },
    });
    acme = await openTestAccount(api, "acme", { USD: "0" });
    bolt = await openTestAccount(api, "bolt", { USD: "300.00" });
    const checkout = await createTestCheckout(api, acme, bolt.wallets["USD"] ?? "", "12.00", order);
    expect(checkout.status).toBe(200);
    // One webhook endpoint in each mode: the Developers section shows the mode's own only.
    const testHook = await graphql(
      acme.token,
      `mutation { createWebhookEndpoint(url: "http://127.0.0.1:9/test-hook", events: ["*"]) { __typename } }`,
    );
    expect(testHook).toMatchObject({
      data: { createWebhookEndpoint: { __typename: "MutationCreateWebhookEndpointSuccess" } },
    });
    const liveHook = await graphql(
      await api.token("acme"),
      `mutation { createWebhookEndpoint(url: "https://127.0.0.1/live-hook", events: ["*"]) { __typename } }`,
    );
    expect(liveHook).toMatchObject({
      data: { createWebhookEndpoint: { __typename: "MutationCreateWebhookEndpointSuccess" } },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it("switches to test data only, funds a test wallet, moves the clock past a checkout's expiry, and back to live", async () => {
    const page = await open({ width: 1366, height: 900 });
    const live = await walletNumbers(page);
    expect(live.length).toBeGreaterThan(0);
    expect(live.some((number) => number.startsWith("test_"))).toBe(false);
    await page.getByRole("button", { name: "Export CSV" }).waitFor();

    // Every GraphQL request from here on, the live stream's included, carries the switch.
    const sent: { header: string | null; accept: string | null }[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/graphql")
        sent.push({
          header: request.headers()["purse-mode"] ?? null,
          accept: request.headers()["accept"] ?? null,
        });
    });

    // Keyboard: the switch is a button with the switch role, toggled by Space.
    const toggle = page.getByRole("switch", { name: "Test mode" });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.focus();
    await page.keyboard.press("Space");
    await page.getByText("Test mode: test data only").waitFor();
    expect(await page.getByRole("switch", { name: "Test mode" }).getAttribute("aria-checked")).toBe("true");
    await expect.poll(() => walletNumbers(page)).toEqual([acme.wallets["USD"]]);
    const balances = page.getByRole("region", { name: "Balances", exact: true });
    expect(await balances.locator(".amount").innerText()).toBe("0.00");

    // The test checkout is listed, open; no live checkout is.
    const checkouts = page.getByRole("table", { name: "Checkout links" });
    const row = checkouts.locator("tr", { hasText: order });
    await expect.poll(() => row.locator(".badge").innerText()).toBe("Open");
    expect(await checkouts.locator("tbody tr").count()).toBe(1);

    // Fund the test wallet.
    const tools = page.getByRole("region", { name: "Test tools", exact: true });
    await tools.getByLabel("Amount").fill("250.00");
    await tools.getByRole("button", { name: "Fund test wallet" }).click();
    await expect.poll(() => balances.locator(".amount").innerText()).toBe("250.00");
    expect(await tools.getByRole("status").first().innerText()).toMatch(/^Added 250\.00 to test_/);

    // A custom move the clock refuses is named; 31 minutes moves it past the link's 30.
    const clock = page.getByRole("region", { name: "Test clock", exact: true });
    await expect.poll(() => clock.innerText()).toMatch(/on real time \(not moved yet\)/);
    await clock.getByLabel("Advance by").fill("soon");
    await clock.getByRole("button", { name: "Advance", exact: true }).click();
    expect(await clock.getByRole("status").innerText()).toMatch(/30s, 90m, 24h or 2d/);
    await clock.getByLabel("Advance by").fill("31m");
    await clock.getByRole("button", { name: "Advance", exact: true }).click();
    await expect.poll(() => clock.innerText()).toMatch(/31 min ahead of real time/);
    await expect.poll(() => row.locator(".badge").innerText()).toBe("Expired");
    const history = page.getByRole("table", { name: "Transactions", exact: true });
    const failed = history.locator("tr", { hasText: order });
    await expect.poll(() => failed.locator(".badge").innerText()).toMatch(/fail/i);

    // The export downloads test data: the switch rides in its query, honoured with the session only.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("test-transactions.csv");
    const [header = [], ...exported] = parseCsv(await readFile((await download.path()) ?? "", "utf8"));
    const column = (name: string) => header.indexOf(name);
    expect(exported.map((row) => [row[column("external_id")], row[column("status")]])).toContainEqual([
      order,
      "FAIL",
    ]);
    const wallets = exported.flatMap((row) => [row[column("wallet_from")], row[column("wallet_to")]]);
    expect(wallets.length).toBeGreaterThan(0);
    expect(wallets.filter((number) => number && !number.startsWith("test_"))).toEqual([]);
    await clock.getByRole("button", { name: "Advance 30 minutes" }).click();
    await expect.poll(() => clock.innerText()).toMatch(/1 h 1 min ahead of real time/);
    await clock.getByRole("button", { name: "Advance 1 day" }).click();
    await expect.poll(() => clock.innerText()).toMatch(/1 d 1 h 1 min ahead of real time/);

    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-test-mode.png"), fullPage: true });

    // Developers: the test mode's endpoint only.
    await page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("button", { name: "Developers" })
      .click();
    const endpoints = page.getByRole("region", { name: "Webhook endpoints", exact: true });
    await endpoints.getByText("127.0.0.1:9/test-hook").waitFor();
    expect(await endpoints.getByText("live-hook").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    expect(sent.length).toBeGreaterThan(5);
    expect(sent.filter((request) => request.header !== "test")).toEqual([]);
    expect(sent.some((request) => request.accept === "text/event-stream")).toBe(true);
    // The tab keeps the switch's position only: no token or cookie value in web storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(JSON.parse(stored)).toEqual({
      "purse-dashboard-had-session": "1",
      "purse-dashboard-mode": "test",
    });

    // A reload keeps the switch; switching off shows live data again.
    await page.reload();
    await page.getByText("Test mode: test data only").waitFor();
    await page.getByRole("navigation", { name: "Sections" }).getByRole("button", { name: "Money" }).click();
    await expect.poll(() => walletNumbers(page)).toEqual([acme.wallets["USD"]]);
    await page.getByRole("switch", { name: "Test mode" }).click();
    await expect.poll(() => walletNumbers(page)).toEqual(live);
    expect(await page.getByText("Test mode: test data only").count()).toBe(0);
    expect(
      await page.getByRole("table", { name: "Checkout links" }).locator("tr", { hasText: order }).count(),
    ).toBe(0);
    await page.getByRole("button", { name: "Export CSV" }).waitFor();
    await page.context().close();
  });

  it("refuses to show a live answer in test mode", async () => {
    const page = await open({ width: 1366, height: 900 });
    // Strip the answers' test-mode mark, as a misrouted request would come back.
    await page.route("**/graphql", async (route) => {
      if (route.request().headers()["accept"] === "text/event-stream") return route.continue();
      const response = await route.fetch();
      const body = (await response.json()) as { extensions?: unknown };
      delete body.extensions;
      await route.fulfill({ response, json: body });
    });
    await page.getByRole("switch", { name: "Test mode" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Purse answered with live data while test mode is on" })
      .first()
      .waitFor();
    expect(await walletNumbers(page)).toEqual([]);
    // The dashboard keeps asking while the page closes: a request then still inside the handler
    // above would find its response disposed and fail after the test, as an unhandled rejection.
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.context().close();
  });

  it("is marked and usable on a phone: no sideways scroll, axe clean", async () => {
    const page = await open({ width: 390, height: 844 }, true);
    await page.getByRole("switch", { name: "Test mode" }).click();
    await page.getByText("Test mode: test data only").waitFor();
    await expect.poll(() => walletNumbers(page)).toEqual([acme.wallets["USD"]]);
    await page.getByRole("region", { name: "Test clock", exact: true }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-test-mode-phone.png"), fullPage: true });
    await page.getByRole("switch", { name: "Test mode" }).click();
    await page.context().close();
  });

  it("creates test credentials in Developers, shown once with copy buttons, that work at /token", async () => {
    const page = await open({ width: 1366, height: 900 }, false, "cafe");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: api.url });
    await page.getByRole("switch", { name: "Test mode" }).click();
    await page.getByText("Test mode: test data only").waitFor();
    await page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("button", { name: "Developers" })
      .click();
    const panel = page.getByRole("region", { name: "Test credentials", exact: true });
    await panel.getByRole("button", { name: "Create test credentials" }).click();
    const shown = panel.getByRole("region", { name: /^Test client test_/ });
    await shown.waitFor();
    const value = (name: string) => shown.locator(`code[data-name="${name}"]`).innerText();
    const clientId = await value("client_id");
    const clientSecret = await value("client_secret");
    for (const text of [clientId, clientSecret, await value("form_token")]) expect(text).toMatch(/^test_/);
    expect(await value("webhook_secret")).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "Copy client_secret" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clientSecret);
    const wallets = /Test wallets made: (.+)\./.exec(await shown.innerText())?.[1] ?? "";
    expect(wallets).toMatch(/^test_\S+ \([A-Z]{3}\)/);
    expect(await seriousViolations(page)).toEqual([]);

    // They work: a test token that sees the test wallets just made; the page forgets the secrets.
    const token = await api.token(clientId, clientSecret);
    const seen = (await api.call<{ data: { number: string }[] }>("GET", "/api/wallets", { token })).body.data;
    expect(seen.map((wallet) => `${wallet.number}`).sort()).toEqual(
      [...wallets.matchAll(/(test_\S+) \(/g)].map((match) => match[1]).sort(),
    );
    await shown.getByRole("button", { name: "I have saved them" }).click();
    expect(await page.locator("body").innerText()).not.toContain(clientSecret);
    await page.getByRole("navigation", { name: "Sections" }).getByRole("button", { name: "Money" }).click();
    await expect.poll(() => walletNumbers(page)).toEqual(seen.map((wallet) => wallet.number));
    await page.context().close();
  });

  it("kept to its policy and its origin all along", () => {
    expect(problems.flat()).toEqual([]);
  });
});
