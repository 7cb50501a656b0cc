import { fileURLToPath } from "node:url";
import { createCheckout } from "@purse/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signedInDashboard } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/**
 * Issue 36: the dashboard's transaction detail of a paid checkout lists its refunds one by one,
 * each a link to its own detail, and the webhooks it sent (its status_url notification and its
 * endpoint event, one row per attempt with time, attempt and HTTP status), read through GraphQL's
 * owner-only fields; the payer, signed in, sees neither. Desktop and phone, axe-core clean.
 */
describe("a paid checkout's refunds and webhook deliveries in the dashboard", { timeout: 90_000 }, () => {
  let api: TestServer;
  let site: MerchantSite;
  let browser: Browser;
  let order: string;
  let paidId: number;
  const refundIds: number[] = [];
  const errors: string[] = [];

  const open = (login: string, viewport: { width: number; height: number }, phone = false) =>
    signedInDashboard(browser, api.url, login, {
      viewport,
      phone,
      watch: (page) => {
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error" && !/status of 401/.test(message.text()))
            errors.push(message.text());
        });
      },
    });

  async function find(page: Page, text: string): Promise<void> {
    const search = page.getByRole("form", { name: "Find a transaction" });
    await search.getByLabel("Transaction id or order id").fill(text);
    await search.getByRole("button", { name: "Find" }).click();
  }

  beforeAll(async () => {
    site = await startMerchantSite();
    // The receiver listens on 127.0.0.1, as on a developer's machine.
    api = await startTestServer({
      env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", PURSE_RATE_LIMIT_PER_MINUTE: "1000" },
    });
    const acme = await api.token("acme");
    await trpcClient(api.url, acme).createWebhookEndpoint.mutate({
      url: `${site.url}/events`,
      events: ["checkout.succeeded", "refund.succeeded"],
    });
    // The status_url's first attempt is refused (503; the next comes 30 s later).
    site.failPath("/webhook", 1);
    const checkout = await createCheckout(api, site, "25.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    order = checkout.paymentId;
    paidId = Number(paid.body.data.transaction_id);
    for (const amount of ["5.00", "2.50"]) {
      const refund = await api.call("POST", "/api/processing/refund", {
        token: acme,
        body: { transaction_id: paidId, amount, reason: "item returned" },
      });
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      refundIds.push(refund.body.data.id as number);
    }
    await site.waitFor("/webhook", 1);
    await site.waitFor("/events", 3);
    // The worker records an attempt just after its answer arrives: wait until the API lists them.
    const attempted = async (id: number) => {
      const answer = await api.call("POST", "/graphql", {
        token: acme,
        body: {
          query: "query ($id: Int) { transaction(id: $id) { deliveries { attempts { attempt } } } }",
          variables: { id },
        },
      });
      const deliveries = (answer.body.data?.transaction?.deliveries ?? []) as { attempts: unknown[] }[];
      return deliveries.length > 0 && deliveries.every((delivery) => delivery.attempts.length > 0);
    };
    const deadline = Date.now() + 15_000;
    while (!((await attempted(paidId)) && (await attempted(refundIds[0] ?? 0)))) {
      if (Date.now() > deadline) throw new Error("the delivery attempts were not recorded in 15 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await site?.close();
  });

  it("lists the refunds with links and every delivery attempt on a desktop, axe clean", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    await find(page, order);
    const refunds = page.getByRole("table", { name: "Refunds" });
    await refunds.waitFor();
    expect(await refunds.locator("tbody tr").allInnerTexts()).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Transaction ${refundIds[0]}\\s+5\\.00 USD\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$`,
        ),
      ),
      expect.stringMatching(new RegExp(`^Transaction ${refundIds[1]}\\s+2\\.50 USD\\s+\\d{4}-`)),
    ]);
    const deliveries = page.getByRole("table", { name: "Webhook deliveries" });
    const rows = await deliveries
      .locator("tbody tr")
      .evaluateAll((items) =>
        items.map((row) =>
          Object.fromEntries(
            [...row.querySelectorAll("td")].map((cell) => [
              cell.dataset["label"],
              (cell as HTMLElement).innerText,
            ]),
          ),
        ),
      );
    expect(rows).toEqual([
      {
        "Time (UTC)": expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        Webhook: `status_url notification\n${site.url}/webhook`,
        Attempt: "1",
        "HTTP status": "HTTP 503",
        Delivery: "Retrying",
      },
      {
        "Time (UTC)": expect.stringMatching(/^\d{4}-/),
        Webhook: `Event checkout.succeeded\n${site.url}/events`,
        Attempt: "1",
        "HTTP status": "HTTP 200",
        Delivery: "Delivered",
      },
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator("section.find").screenshot({ path: docs("dashboard-detail.png") });

    // A refund's link opens its own detail, whose "Refund of" leads back to the checkout.
    await refunds.getByRole("button", { name: `Transaction ${refundIds[0]}` }).click();
    const detail = page.locator(".detail");
    await expect.poll(() => detail.innerText()).toContain(`Transaction id\n${refundIds[0]}`);
    expect(await detail.innerText()).toContain(`Refund of\ntransaction ${paidId}`);
    expect(await page.getByRole("table", { name: "Refunds" }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole("table", { name: "Webhook deliveries" }).locator("tbody").innerText())
      .toContain("Event refund.succeeded");
    await detail.getByRole("button", { name: `transaction ${paidId}` }).click();
    await expect.poll(() => detail.innerText()).toContain(`Transaction id\n${paidId}`);
    await page.getByRole("table", { name: "Refunds" }).waitFor();
    await page.context().close();
  });

  it("fits the refunds and deliveries on a phone as cards, axe clean", async () => {
    const page = await open("acme", { width: 390, height: 844 }, true);
    await find(page, order);
    await page.getByRole("table", { name: "Webhook deliveries" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator("section.find").screenshot({ path: docs("dashboard-detail-phone.png") });
    await page.context().close();
  });

  it("shows the payer the detail without the merchant's refunds or webhooks", async () => {
    const page = await open("bolt", { width: 1366, height: 900 });
    await find(page, String(paidId));
    const detail = page.locator(".detail");
    await expect.poll(() => detail.innerText().catch(() => "")).toContain(`Transaction id\n${paidId}`);
    expect(await detail.innerText()).toContain("Refunded\n7.50 USD");
    expect(await page.getByRole("heading", { name: "Refunds" }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Webhook deliveries" }).count()).toBe(0);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
