import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { dropDatabase } from "@purse/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser } from "../support/browser.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const repository = fileURLToPath(new URL("../..", import.meta.url));
const builtPage = fileURLToPath(new URL("../../packages/dashboard/dist/index.html", import.meta.url));
const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/**
 * The dashboard's **Refund** action on a paid checkout, in Chromium: amount and reason, a
 * confirmation naming the amount and the payer's wallet, the refund through GraphQL's
 * `refundCheckout`, and what was refunded on the row afterwards, as the API says it.
 */
describe("refunding a paid checkout from the dashboard", { timeout: 60_000 }, () => {
  let database: SeededDatabase;
  let api: TestServer;
  let browser: Browser;
  let page: Page;
  let acme: string;
  let order: { id: string; transactionId: number };
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(builtPage))
      await promisify(execFile)("npm", ["run", "build", "-w", "@purse/dashboard"], { cwd: repository });
    database = await createSeededDatabase();
    api = await startTestServer({ database, env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
    const checkout = await createCheckout(api, { url: api.url }, "25.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    order = { id: checkout.paymentId, transactionId: paid.body.data.transaction_id };
    // An open link too, which offers no refund.
    await createCheckout(api, { url: api.url }, "42.00");
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && !/status of 401/.test(message.text())) errors.push(message.text());
    });
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel("Login", { exact: true }).fill("acme");
    await page.getByLabel("Password", { exact: true }).fill("acme-pass");
    await page.getByRole("button", { name: "Sign in" }).click();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    if (database) await dropDatabase(database.name);
  });

  const links = () => page.getByRole("table", { name: "Checkout links" });
  const row = () => links().locator("tbody tr").filter({ hasText: order.id });
  const dialog = () => page.getByRole("dialog", { name: `Refund order ${order.id}` });
  const refunded = async () =>
    (await api.call("GET", `/api/transaction/show?id=${order.transactionId}`, { token: acme })).body.data
      .refunded;

  it("offers Refund on the paid checkout only", async () => {
    await row().waitFor();
    expect(await row().textContent()).toContain("Paid");
    expect(
      await links()
        .getByRole("button", { name: /^Refund / })
        .count(),
    ).toBe(1);
  });

  it("refuses an amount over what remains in the form, before anything is sent", async () => {
    await row()
      .getByRole("button", { name: `Refund ${order.id}` })
      .click();
    await dialog().getByLabel("Amount").fill("25.01");
    await dialog().getByRole("button", { name: "Review refund" }).click();
    expect(await dialog().getByRole("alert").textContent()).toBe("At most 25.00 may still be refunded.");
    expect(await refunded()).toBe("0.00");
  });

  it("confirms with the amount and the payer's wallet, refunds, and shows it on the row", async () => {
    await dialog().getByLabel("Amount").fill("5.00");
    await dialog().getByLabel("Reason").fill("One item returned");
    await dialog().getByRole("button", { name: "Review refund" }).click();
    const question = await dialog().locator(".refund-confirm").textContent();
    expect(question).toContain("Refund 5.00 USD to the payer's wallet U100000020?");
    // The whole question is readable: no line of the dialog runs past its edge (it once inherited
    // the table cell's no-wrap and cut the sentence off).
    const clipped = await dialog().evaluate(
      (element) =>
        [...element.querySelectorAll("p")].filter((line) => line.scrollWidth > line.clientWidth).length,
    );
    expect(clipped).toBe(0);
    // The dialog and the page behind it, as a screen reader or keyboard user meets them.
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-refund.png") });
    await dialog().getByRole("button", { name: "Confirm refund" }).click();
    await expect
      .poll(() => dialog().getByRole("status").textContent())
      .toBe("Refunded 5.00 USD to wallet U100000020. 20.00 USD may still be refunded.");
    await dialog().getByRole("button", { name: "Close" }).click();
    await expect.poll(() => row().textContent()).toContain("Refunded 5.00 USD");
    expect(await refunded()).toBe("5.00");
    const refund = await api.call("GET", `/api/transaction/show?id=${order.transactionId + 1}`, {
      token: acme,
    });
    expect(refund.body.data).toMatchObject({
      type: "WITHDRAW",
      refund_of: order.transactionId,
      amount: "5.00",
    });
    // The transaction detail says it too: the checkout what was refunded, the refund its checkout.
    const search = page.getByRole("form", { name: "Find a transaction" });
    const detail = page.locator(".detail");
    await search.getByLabel("Transaction id or order id").fill(order.id);
    await search.getByRole("button", { name: "Find" }).click();
    await expect.poll(() => detail.innerText().catch(() => "")).toContain("Refunded\n5.00 USD");
    await search.getByLabel("Transaction id or order id").fill(String(refund.body.data.id));
    await search.getByRole("button", { name: "Find" }).click();
    await expect
      .poll(() => detail.innerText().catch(() => ""))
      .toContain(`Refund of\ntransaction ${order.transactionId}`);
  });

  it("refunds all that remains when the amount is left empty, then offers no more", async () => {
    await row()
      .getByRole("button", { name: `Refund ${order.id}` })
      .click();
    await dialog().getByRole("button", { name: "Review refund" }).click();
    expect(await dialog().locator(".refund-confirm").textContent()).toContain("Refund 20.00 USD");
    await dialog().getByRole("button", { name: "Confirm refund" }).click();
    await dialog().getByRole("status").waitFor();
    await dialog().getByRole("button", { name: "Close" }).click();
    await expect.poll(() => row().textContent()).toContain("Refunded 25.00 USD");
    expect(
      await row()
        .getByRole("button", { name: `Refund ${order.id}` })
        .count(),
    ).toBe(0);
    expect(await refunded()).toBe("25.00");
    // The transactions list hears of the refund live, as of the first one: the page it shows then
    // agrees with the checkout's row.
    const history = page.getByRole("table", { name: "Transactions", exact: true });
    await expect
      .poll(() => history.locator("tbody").textContent(), { timeout: 10_000 })
      .toContain("-20.00 USD");
    await page.screenshot({ path: docs("dashboard-refunded.png") });
  });

  it("logged no error, and left a ledger purse audit finds balanced", async () => {
    expect(errors).toEqual([]);
    const audit = await purseCli(database, ["audit"]);
    expect(audit.code, audit.stderr).toBe(0);
  });
});
