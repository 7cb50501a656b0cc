import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createCheckout, sampleFixture } from "@purse/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signedInDashboard } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const repository = fileURLToPath(new URL("../..", import.meta.url));
const builtPage = fileURLToPath(new URL("../../packages/dashboard/dist/index.html", import.meta.url));
const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

async function ensureDashboardBuilt(): Promise<void> {
  if (existsSync(builtPage)) return;
  await promisify(execFile)("npm", ["run", "build", "-w", "@purse/dashboard"], { cwd: repository });
}

/** The sample world with a euro wallet of 1.2 million: the chart's axis must still be readable. */
function bigFixture() {
  const fixture = sampleFixture();
  const euro = fixture.wallets.find((wallet) => wallet["number"] === "E100000011");
  if (euro) Object.assign(euro, { amount: "1234567.89", amountLimit: "10000000.00" });
  return fixture;
}

/**
 * Issue 36, item 4 (and what item 3 shows): the rough edges a merchant and a partner met, each
 * measured in Chromium as they see it, with axe-core finding no serious or critical violation.
 */
describe("a dashboard a merchant can trust, in a browser", { timeout: 90_000 }, () => {
  let api: TestServer;
  let browser: Browser;
  let cancelledId: number;
  let paidOrder: string;
  let open42: { url: string; paymentId: string };

  const open = (login: string, viewport: { width: number; height: number }, phone = false) =>
    signedInDashboard(browser, api.url, login, {
      viewport,
      phone,
      watch: (page) =>
        page.on("pageerror", (error) => {
          throw error;
        }),
    });

  beforeAll(async () => {
    await ensureDashboardBuilt();
    api = await startTestServer({ fixture: bigFixture(), env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    const acme = await api.token("acme");
    const bolt = await api.token("bolt");
    const transfer = (token: string, from: string, to: string, amount: string) =>
      api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: from, wallet_to: to, amount },
      });
    await transfer(acme, "U100000010", "U100000020", "10.00");
    await transfer(bolt, "U100000020", "U100000010", "7.35");
    const pay = (token: string, action: string) =>
      api.call("POST", "/api/processing/pay", {
        body: { token, login: "bolt", password: "bolt-pass", action },
      });
    const paid = await createCheckout(api, { url: "https://shop.example" }, "20.00");
    await pay(paid.token, "pay");
    paidOrder = paid.paymentId;
    const unpaid = await createCheckout(api, { url: "https://shop.example" }, "63.25");
    cancelledId = Number((await pay(unpaid.token, "cancel")).body.data.transaction_id);
    open42 = await createCheckout(api, { url: "https://shop.example" }, "42.00");
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it("shows amounts with their direction, totals as in, out and net, and a cancelled checkout at 0.00 everywhere", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    const table = page.getByRole("table", { name: "Transactions" });
    await table.locator(`tr[data-id="${cancelledId}"]`).waitFor();
    // What a reader sees: the words before the sign are for screen readers ("in", "out").
    const seen = (text: string) => text.replace(/^(out and in|in|out)\s+/, "");
    const amountOf = async (id: number) =>
      seen(await table.locator(`tr[data-id="${id}"] td[data-label="Amount"]`).innerText());
    expect(await amountOf(cancelledId)).toBe("0.00 USD");
    const amounts = (await table.locator('td[data-label="Amount"]').allInnerTexts()).map(seen);
    expect(amounts).toContain("-10.20 USD"); // 10.00 and its fee, out of acme's wallet
    expect(amounts).toContain("+7.35 USD"); // in, as the payer sent it
    const totals = page.getByRole("list", { name: "Totals of the filtered transactions" });
    const usd = await totals.locator('[data-currency="USD"]').innerText();
    expect(usd).toMatch(
      /^USD In \+[\d,.]+ Out -[\d,.]+ Net [+-]?[\d,.]+ \(\d+ completed transactions of \d+\)$/,
    );
    expect(await page.getByText("count completed transactions only").isVisible()).toBe(true);

    // The detail of the cancelled checkout: what moved (0.00), and what was asked (63.25).
    await page.getByRole("button", { name: `Details of transaction ${cancelledId}` }).click();
    const detail = page.getByRole("definition");
    const shown = page.locator(".detail");
    await shown.waitFor();
    expect(await shown.innerText()).toContain("Amount moved\n0.00 USD");
    expect(await shown.innerText()).toContain("Amount asked\n63.25 USD");
    expect(await shown.innerText()).toContain("Cancelled by the payer");
    expect(await detail.count()).toBeGreaterThan(5);
    await page.context().close();
  });

  it("finds a transaction by order id or id, and says in words when none is found", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    const search = page.getByRole("form", { name: "Find a transaction" });
    await search.getByLabel("Transaction id or order id").fill(paidOrder);
    await search.getByRole("button", { name: "Find" }).click();
    const detail = page.locator(".detail");
    await expect.poll(() => detail.innerText().catch(() => "")).toContain(`Order id\n${paidOrder}`);
    expect(await detail.innerText()).toContain("Amount moved\n20.00 USD");
    const id = (await detail.locator("div").first().locator("dd").innerText()).trim();
    await search.getByLabel("Transaction id or order id").fill(id);
    await search.getByRole("button", { name: "Find" }).click();
    await expect.poll(() => detail.innerText().catch(() => "")).toContain(`Transaction id\n${id}`);
    await search.getByLabel("Transaction id or order id").fill("no-such-order");
    await search.getByRole("button", { name: "Find" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toBe("No transaction of yours has the id or order id “no-such-order”.");
    await page.context().close();
  });

  for (const width of [1366, 1440]) {
    it(`fits the Checkout links table in its panel at ${width} px, keyboard-scrollable, axe clean`, async () => {
      const page = await open("acme", { width, height: 900 });
      const section = page.getByRole("region", { name: "Checkout links", exact: true });
      await section.locator("tbody tr").first().waitFor();
      const sizes = await section
        .locator(".table-scroll")
        .evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth, tabIndex: box.tabIndex }));
      expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
      expect(sizes.tabIndex).toBe(0);
      for (const column of ["Paid or closed (UTC)", "Expires (UTC)"]) {
        expect(await section.getByRole("columnheader", { name: column }).isVisible()).toBe(true);
      }
      // The statement's wallet selector shows the whole number and currency.
      const select = page.getByLabel("Statement for");
      const fits = await select.evaluate((element: HTMLSelectElement) => {
        const probe = document.createElement("span");
        probe.style.font = getComputedStyle(element).font;
        probe.style.whiteSpace = "nowrap";
        probe.textContent = element.selectedOptions[0]?.textContent ?? "";
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        // Room for the text besides the padding and the arrow (about 2 rem).
        return element.clientWidth - 32 >= text;
      });
      expect(fits).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      if (width === 1366) await page.screenshot({ path: docs("dashboard-1366.png"), fullPage: true });
      await page.context().close();
    });
  }

  it("shows an open checkout's payment link with a button that copies it; a closed one has none", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: api.url });
    const section = page.getByRole("region", { name: "Checkout links", exact: true });
    const row = section.locator("tbody tr", { hasText: open42.paymentId });
    await row.waitFor();
    expect(await row.getByRole("link").getAttribute("href")).toBe(open42.url);
    await row.getByRole("button", { name: `Copy link of ${open42.paymentId}` }).click();
    await expect.poll(() => row.getByRole("status").innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(open42.url);
    // The copied link is the payer's page, as the checkout's answer gave it.
    expect((await fetch(open42.url)).status).toBe(200);
    const paid = section.locator("tbody tr", { hasText: paidOrder });
    expect(await paid.getByRole("link").count()).toBe(0);
    expect(await paid.locator('td[data-label="Payment link"]').innerText()).toBe("—");
    await page.context().close();
  });

  it("draws the y-axis of a 1.2 million balance without clipping its labels", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    const chart = page.getByRole("img", { name: /^Balance over time, E100000011/ });
    await chart.locator("canvas").waitFor();
    const ink = await chart.locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext("2d");
      const column = (x: number) => {
        const pixels = context?.getImageData(x, 0, 1, canvas.height).data ?? [];
        let painted = 0;
        for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) painted += 1;
        return painted;
      };
      // The labels are right-aligned against the axis: clipped, they would touch the left edge.
      let axis = 0;
      for (let x = 0; x < 40; x += 1) axis += column(x);
      return { edge: column(0) + column(1), axis };
    });
    expect(ink.edge).toBe(0);
    expect(ink.axis).toBeGreaterThan(0);
    await page.context().close();
  });

  it("lists transactions on a phone as compact rows of at most three lines, axe clean", async () => {
    const page = await open("acme", { width: 390, height: 844 }, true);
    const rows = page.getByRole("table", { name: "Transactions" }).locator("tbody tr");
    await rows.first().waitFor();
    const heights = await rows.evaluateAll((items) =>
      items.map((row) => {
        const lineHeight = Number.parseFloat(getComputedStyle(row).lineHeight) || 22;
        return { height: row.getBoundingClientRect().height, lineHeight };
      }),
    );
    expect(heights.length).toBeGreaterThan(3);
    for (const { height, lineHeight } of heights) expect(height).toBeLessThanOrEqual(lineHeight * 3 + 16);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator("section.transactions").screenshot({ path: docs("dashboard-phone-transactions.png") });
    await page.context().close();
  });

  it("shows a partner what a partner may see, in words, never a raw refusal or a button that cannot work", async () => {
    const page = await open("bolt", { width: 1366, height: 900 });
    await page.getByRole("region", { name: "Checkout links", exact: true }).waitFor();
    await page
      .getByRole("img", { name: /^Balance over time/ })
      .first()
      .waitFor();
    const note = page.getByRole("region", { name: "Transactions" });
    expect(await note.innerText()).toContain("This is a partner account.");
    expect(await page.getByRole("table", { name: "Transactions" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Export CSV" }).count()).toBe(0);
    await page.getByRole("button", { name: "Show statement" }).click();
    await page.locator(".statement").waitFor();
    expect(await page.textContent("body")).not.toMatch(/scope missed/i);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-partner.png"), fullPage: true });
    await page.context().close();
  });
});
