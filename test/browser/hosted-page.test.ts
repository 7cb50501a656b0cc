import { routeLockKey, verifyStandardWebhook, verifyWebhookSignature } from "@purse/engine";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
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

/** Reports every Content-Security-Policy violation on the page, with or without page scripts. */
function watchPolicy(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|securitypolicyviolation/i.test(message.text()))
      violations.push(message.text());
  });
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`securitypolicyviolation ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

/** The page's refusal: a plain sentence for the payer, the API's text beneath as the reason. */
async function refusal(page: Page): Promise<{ payer: string; reason: string }> {
  const alert = page.getByRole("alert");
  await alert.waitFor({ state: "visible" });
  return {
    payer: (await alert.locator(".payer").textContent())?.trim() ?? "",
    reason: (await alert.locator(".reason").textContent())?.trim() ?? "",
  };
}

describe("the hosted payment page in a browser", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let site: MerchantSite;
  let browser: Browser;
  let page: Page;
  let violations: string[];

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
    violations = watchPolicy(page);
  });
  afterEach(async () => {
    await page.close();
    // The page works under its own policy: nothing it needs is ever refused.
    expect(violations).toEqual([]);
  });

  it("sends a strict policy and no-framing, no-referrer, no-sniff headers, enforced by Chromium", async () => {
    const checkout = await createCheckout(api, site, "1.00");
    const response = await page.goto(checkout.url);
    const headers = response?.headers() ?? {};
    const policy = headers["content-security-policy"] ?? "";
    expect(policy).toMatch(/script-src 'nonce-[\w+/=-]{16,}'/);
    expect(policy).not.toContain("unsafe-inline");
    for (const directive of [
      "default-src 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(headers).toMatchObject({
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    });
    // A new nonce for every answer.
    const again = await page.goto(checkout.url);
    expect(again?.headers()["content-security-policy"]).not.toBe(policy);

    // Framed by another page, Chromium refuses to show it (clickjacking).
    const framer = await browser.newPage();
    await framer.goto(`${site.url}/success`);
    await framer.setContent(`<iframe src="${checkout.url}"></iframe>`);
    await framer.waitForTimeout(500);
    const framed = framer.frames().find((frame) => frame !== framer.mainFrame());
    expect(await framed?.content().catch(() => "")).not.toContain("Pay Acme Shop");
    await framer.close();
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
    expect(await refusal(page)).toEqual({
      payer:
        "We could not sign you in to the paying wallet. Check your login and password: they must be those of the account that owns the wallet shown above.",
      reason: "Reason: Hash is not valid",
    });
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
    expect(await page.locator(".reason").textContent()).toBe("Reason: Payment link expired");
    await page.goto(`${checkout.url.slice(0, checkout.url.lastIndexOf("/"))}/chk_unknown`);
    expect(await page.getByRole("heading").textContent()).toBe("This payment link is not valid");
    expect(await page.locator(".reason").textContent()).toBe("Reason: Not found");
  });

  it("never follows a stored script address after paying, with or without JavaScript", async () => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const scripted = await createCheckout(api, site, "1.50");
    // As a checkout stored before the engine refused such addresses.
    await sql(
      `update checkouts set success_url = 'javascript:alert(document.domain)' where payment_id = '${scripted.paymentId}'`,
    );
    await page.goto(scripted.url);
    await signIn("bolt", "bolt-pass");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect.poll(() => page.getByRole("heading").textContent()).toBe("This payment is complete");
    expect(page.url()).toBe(scripted.url);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    const other = await createCheckout(api, site, "1.50");
    await sql(
      `update checkouts set cancel_url = 'JavaScript:alert(1)' where payment_id = '${other.paymentId}'`,
    );
    await plain.goto(other.url);
    await plain.getByLabel("Login").fill("bolt");
    await plain.getByLabel("Password").fill("bolt-pass");
    await plain.getByRole("button", { name: "Cancel" }).click();
    expect(await plain.getByRole("heading").textContent()).toBe("This payment was cancelled");
    expect(await plain.locator("a, meta[http-equiv]").count()).toBe(0);
    await context.close();
    expect(dialogs).toEqual([]);
  });

  it("Route locked: says the payment is already being processed", async () => {
    const checkout = await createCheckout(api, site, "1.25");
    const [row] = await sql<{ id: string }>(
      `select id::text as id from checkouts where payment_id = '${checkout.paymentId}'`,
    );
    let release = () => {};
    let held = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const lock = api.server.runtime.deps.routeLock.run(
      [routeLockKey("pay", row?.id ?? "", "")],
      10_000,
      () => {
        held();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    );
    await holding;
    try {
      await page.goto(checkout.url);
      await signIn("bolt", "bolt-pass");
      await page.getByRole("button", { name: "Pay" }).click();
      expect(await refusal(page)).toEqual({
        payer:
          "This payment is already being processed. Wait a few seconds, then reload the page to see how it ended.",
        reason: "Reason: Route locked to avoid duplication",
      });
    } finally {
      release();
      await lock;
    }
  });

  it("Method locked please try again later: says to wait after too many sign-ins", async () => {
    const checkout = await createCheckout(api, site, "1.25");
    const token = checkout.token;
    let answer = "";
    for (let attempt = 0; attempt < 200 && answer !== "Method locked please try again later"; attempt += 1) {
      const response = await api.call("POST", "/api/processing/pay", {
        body: { token, login: "cafe", password: "wrong", action: "pay" },
      });
      answer = response.body.message;
    }
    expect(answer).toBe("Method locked please try again later");
    await page.goto(checkout.url);
    await signIn("cafe", "cafe-pass");
    await page.getByRole("button", { name: "Pay" }).click();
    expect(await refusal(page)).toEqual({
      payer: "There have been too many attempts. Wait a minute, then try again.",
      reason: "Reason: Method locked please try again later",
    });
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

  // Last: it leaves the payer's wallet nearly empty.
  it("Deposit your wallet, you not have funds: says to add funds", async () => {
    // Pay all but 1.00 of the balance (in cents) first, then a 2.00 payment cannot be covered.
    const allButOne = BigInt(await balance("U100000020")) - 100n;
    const drain = await createCheckout(
      api,
      site,
      `${allButOne / 100n}.${String(allButOne % 100n).padStart(2, "0")}`,
    );
    const checkout = await createCheckout(api, site, "2.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: drain.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    await page.goto(checkout.url);
    await signIn("bolt", "bolt-pass");
    await page.getByRole("button", { name: "Pay" }).click();
    expect(await refusal(page)).toEqual({
      payer: "Your wallet does not have enough money for this payment. Add funds to it, then try again.",
      reason: "Reason: Deposit your wallet, you not have funds",
    });
  });
});

describe("the hosted payment page with its captcha on", () => {
  let api: TestServer;
  let site: MerchantSite;
  let browser: Browser;

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_CAPTCHA: "on", PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
    site = await startMerchantSite();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await site?.close();
  });

  it("solves the ALTCHA proof of work under the page's policy, then pays", async () => {
    const page = await browser.newPage();
    const violations = watchPolicy(page);
    const checkout = await createCheckout(api, site, "3.00");
    await page.goto(checkout.url);
    await page.getByLabel("Login").fill("bolt");
    await page.getByLabel("Password").fill("bolt-pass");
    await page.getByText("I'm not a robot").click();
    await expect
      .poll(() => page.locator('input[name="captcha"]').inputValue(), { timeout: 20_000 })
      .toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(`${site.url}/success`);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("Captcha string: without the solved captcha, says to tick the box again", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    const violations = watchPolicy(plain);
    const checkout = await createCheckout(api, site, "3.00");
    await plain.goto(checkout.url);
    await plain.getByLabel("Login").fill("bolt");
    await plain.getByLabel("Password").fill("bolt-pass");
    await plain.getByRole("button", { name: "Pay" }).click();
    expect(await refusal(plain)).toEqual({
      payer:
        "We could not confirm that you are a person. Tick the “I'm not a robot” box again, then press Pay.",
      reason: "Reason: Captcha string",
    });
    expect(violations).toEqual([]);
    await context.close();
  });
});
