import { verifyStandardWebhook, verifyWebhookSignature } from "@purse/engine";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const acmeWebhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("the hosted payment page in a browser", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let site: MerchantSite;
  let browser: Browser;
  let page: Page;

  async function sql<T>(text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async function balance(number: string): Promise<string> {
    const [row] = await sql<{ balance: string }>(
      `select balance_minor::text as balance from wallets where number = '${number}'`,
    );
    return row?.balance ?? "missing";
  }

  async function signIn(login: string, password: string) {
    await page.getByLabel("Login").fill(login);
    await page.getByLabel("Password").fill(password);
  }

  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database, env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
    site = await startMerchantSite();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await site?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });

  it("shows the payment, takes the payer's login, pays, returns to the shop and notifies it, signed", async () => {
    const checkout = await createCheckout(api, site, "25.00");
    const payerBefore = await balance("U100000020");
    await page.goto(checkout.url);
    await expect.poll(() => page.getByRole("heading", { name: "Pay Acme Shop" }).isVisible()).toBe(true);
    expect(await page.textContent("main")).toContain("$25.00");
    await signIn("bolt", "bolt-pass");
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(`${site.url}/success`);

    expect(await balance("U100000020")).toBe(String(Number(payerBefore) - 2500));
    const [webhook] = await site.waitFor("/webhook");
    const body = JSON.parse(webhook?.body ?? "{}");
    expect(body).toMatchObject({
      payment_id: checkout.paymentId,
      wallet_from: "U100000020",
      wallet_to: "U100000010",
      currency_from: "USD",
      currency_to: "USD",
      amount: 25,
      commission: 0.38,
      status: "SUCCESS",
      cancel: false,
    });
    expect(verifyWebhookSignature(body, "acme-form-token")).toBe(true);
    const headers = Object.fromEntries(
      Object.entries(webhook?.headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    expect(verifyStandardWebhook(webhook?.body ?? "", headers, acmeWebhookSecret)).toMatchObject({
      status: "SUCCESS",
    });

    const shown = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: await api.token("acme"),
    });
    expect(shown.body.data).toMatchObject({
      type: "DEPOSIT",
      status: "SUCCESS",
      amount: "25.00",
      commission: "0.38",
    });
  });

  it("cancels: back to cancel_url, a CANCEL notification, no money moved", async () => {
    const checkout = await createCheckout(api, site, "10.00");
    const payerBefore = await balance("U100000020");
    await page.goto(checkout.url);
    await signIn("bolt", "bolt-pass");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL(`${site.url}/cancel`);
    expect(await balance("U100000020")).toBe(payerBefore);
    const webhooks = await site.waitFor("/webhook", 2);
    const cancelled = webhooks
      .map((w) => JSON.parse(w.body))
      .find((b) => b.payment_id === checkout.paymentId);
    expect(cancelled).toMatchObject({ status: "CANCEL", cancel: true });
  });

  it("refuses a payer who does not own the paying wallet: Hash is not valid, and nothing moves", async () => {
    const checkout = await createCheckout(api, site, "5.00");
    const payerBefore = await balance("U100000020");
    await page.goto(checkout.url);
    await signIn("cafe", "cafe-pass");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Hash is not valid");
    expect(page.url()).toBe(checkout.url);
    expect(await balance("U100000020")).toBe(payerBefore);
  });

  it("pays once when Pay is double-clicked", async () => {
    const checkout = await createCheckout(api, site, "3.00");
    const payerBefore = await balance("U100000020");
    await page.goto(checkout.url);
    await signIn("bolt", "bolt-pass");
    await page.getByRole("button", { name: "Pay" }).dblclick();
    await page.waitForURL(`${site.url}/success`);
    const payments = await sql<{ n: number }>(
      `select count(*)::int as n from transactions where external_id = '${checkout.paymentId}'`,
    );
    expect(payments).toEqual([{ n: 1 }]);
    expect(await balance("U100000020")).toBe(String(Number(payerBefore) - 300));
  });

  it("shows a clear page for expired, completed and unknown links", async () => {
    const checkout = await createCheckout(api, site, "2.00");
    await sql(
      `update checkouts set expired_at = now() - interval '1 minute' where payment_id = '${checkout.paymentId}'`,
    );
    await page.goto(checkout.url);
    expect(await page.getByRole("heading").textContent()).toBe("This payment link has expired");
    await page.goto(`${checkout.url.slice(0, checkout.url.lastIndexOf("/"))}/chk_unknown`);
    expect(await page.getByRole("heading").textContent()).toBe("This payment link is not valid");
  });

  it("works without JavaScript: the form posts and the shop's page follows", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    const checkout = await createCheckout(api, site, "4.00");
    await plain.goto(checkout.url);
    await plain.getByLabel("Login").fill("bolt");
    await plain.getByLabel("Password").fill("bolt-pass");
    await plain.getByRole("button", { name: "Pay" }).click();
    await plain.waitForURL(`${site.url}/success`);
    await plain.goto(checkout.url);
    expect(await plain.getByRole("heading").textContent()).toBe("This payment is complete");
    await context.close();
  });
});
