import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { buildDashboard, launchBrowser, pageProblems, signedInDashboard } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import {
  type MerchantSite,
  type ReceivedWebhook,
  startMerchantSite,
  verifiedEvent,
} from "../support/webhook-receiver.ts";

const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/**
 * Issue 37: the dashboard's Developers section in Chromium, against a real `purse serve` and a
 * real HTTP receiver on 127.0.0.1 (as on a developer's machine, hence PURSE_WEBHOOK_ALLOW_PRIVATE).
 */
describe("the dashboard's Developers section, in a browser", { timeout: 120_000 }, () => {
  let api: TestServer;
  let site: MerchantSite;
  let browser: Browser;
  const problems: string[][] = [];

  async function open(
    login: string,
    viewport: { width: number; height: number },
    phone = false,
  ): Promise<Page> {
    const page = await signedInDashboard(browser, api.url, login, {
      viewport,
      phone,
      timeoutMs: 20_000,
      watch: (opened) => problems.push(pageProblems(opened, new URL(api.url).origin)),
    });
    await page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("button", { name: "Developers" })
      .click();
    await page.getByRole("region", { name: "Webhook endpoints", exact: true }).waitFor();
    return page;
  }

  /** Adds an endpoint through the form; answers its id and the secret shown once. */
  async function addEndpoint(
    page: Page,
    url: string,
    events: readonly string[] | "all",
    description: string,
  ) {
    const panel = page.getByRole("region", { name: "Webhook endpoints", exact: true });
    await panel.getByRole("button", { name: "Add endpoint" }).click();
    const form = page.getByRole("form", { name: "Add an endpoint" });
    await form.getByLabel("Endpoint URL").fill(url);
    await form.getByLabel("Description").fill(description);
    if (events !== "all") {
      await form.getByLabel("All events, present and future").uncheck();
      for (const type of events) await form.getByLabel(type, { exact: true }).check();
    }
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("region", { name: /signing secret/ });
    await shown.waitFor();
    const secret = (await shown.locator("code.secret").innerText()).trim();
    const id = /Endpoint (we_\S+) added/.exec(await shown.getByRole("heading").innerText())?.[1] ?? "";
    return { id, secret, shown };
  }

  beforeAll(async () => {
    await buildDashboard();
    site = await startMerchantSite();
    api = await startTestServer({
      env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", PURSE_RATE_LIMIT_PER_MINUTE: "1000" },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await site?.close();
  });

  it("adds an endpoint, shows its secret once, sends a test event, lists events, replays one and a period, and logs each attempt", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: api.url });
    const panel = page.getByRole("region", { name: "Webhook endpoints", exact: true });
    await panel.getByText("No webhook endpoints yet").waitFor();

    // Hostile URLs are named in words, before sending (javascript:) and as the server refuses them.
    await panel.getByRole("button", { name: "Add endpoint" }).click();
    const form = page.getByRole("form", { name: "Add an endpoint" });
    await form.getByLabel("Endpoint URL").fill("javascript:alert(1)");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    expect(await form.getByRole("alert").innerText()).toBe("The URL must start with https://.");
    await form.getByLabel("Endpoint URL").fill("https://user:secret@example.com/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect
      .poll(() => form.getByRole("alert").innerText())
      .toBe(
        "The URL must be a public https address (http and private or loopback addresses are allowed only for test-mode endpoints).",
      );
    await form.getByRole("button", { name: "Cancel" }).click();

    const { id, secret, shown } = await addEndpoint(
      page,
      `${site.url}/dev`,
      ["transfer.sent"],
      "Shop backend",
    );
    expect(id).toMatch(/^we_/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await shown.getByRole("button", { name: "Copy secret" }).click();
    await expect.poll(() => shown.getByRole("status").innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole("button", { name: "I have saved it" }).click();
    // Shown once: gone from the page, and the list never carries it.
    await expect.poll(() => page.locator("body").innerText()).not.toContain(secret);
    const row = panel.locator(`tr[data-id="${id}"]`);
    await row.waitFor();
    expect(await row.locator('td[data-label="Events"]').innerText()).toBe("transfer.sent");
    expect(await row.locator('td[data-label="Status"]').innerText()).toBe("Enabled");
    expect(await row.innerText()).toContain("Shop backend");

    // Send test event: a signed sample, livemode false, of a type the endpoint does not subscribe to.
    const test = page.getByRole("region", { name: "Send test event", exact: true });
    await test.getByLabel("Event type").selectOption("checkout.succeeded");
    await test.getByLabel("To endpoint").selectOption(id);
    await test.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => test.locator(".test-outcome").innerText(), { timeout: 25_000 })
      .toMatch(/^Test event evt_\S+: HTTP 200 delivered in \d+ ms\.$/);
    const [sample] = await site.waitFor("/dev", 1);
    const sampleEvent = verifiedEvent(sample as ReceivedWebhook, secret);
    expect(sampleEvent).toMatchObject({ type: "checkout.succeeded", livemode: false });
    expect(await test.locator(".test-outcome").innerText()).toContain(sampleEvent.id);

    // A real transfer raises transfer.sent, delivered to the endpoint; the Events list shows it.
    const acme = await api.token("acme");
    const sent = await api.call("POST", "/api/transaction/transfer", {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
    });
    expect(sent.status).toBe(200);
    const delivered = await site.waitFor("/dev", 2);
    const transferEvent = verifiedEvent(delivered[1] as ReceivedWebhook, secret);
    expect(transferEvent).toMatchObject({ type: "transfer.sent", livemode: true });

    const events = page.getByRole("region", { name: "Events", exact: true });
    await events.getByLabel("Event type").selectOption("transfer.sent");
    const eventRow = events.locator(`tr[data-id="${transferEvent.id}"]`);
    await eventRow.waitFor();
    // The filter keeps to its type (the unfiltered list stays on screen until the answer comes).
    await expect.poll(() => events.locator("tbody tr").count(), { timeout: 10_000 }).toBe(1);
    expect(await eventRow.locator('td[data-label="Type"]').innerText()).toBe("transfer.sent");
    await eventRow.getByRole("button", { name: `Body of ${transferEvent.id}` }).click();
    const body = JSON.parse(await eventRow.locator("pre.event-body").innerText());
    expect(body).toMatchObject({ id: transferEvent.id, type: "transfer.sent", livemode: true });
    expect(body.data).toEqual(JSON.parse((delivered[1] as ReceivedWebhook).body).data);

    // Replay that one event to the endpoint: the receiver gets the same event id again.
    await events.getByLabel("Replay to endpoint").selectOption(id);
    await eventRow.getByRole("button", { name: `Replay ${transferEvent.id}` }).click();
    await expect
      .poll(() => events.locator(".replay-outcome").innerText())
      .toBe(`1 event queued for delivery again to ${id}.`);
    const replayed = await site.waitFor("/dev", 3);
    expect(verifiedEvent(replayed[2] as ReceivedWebhook, secret).id).toBe(transferEvent.id);

    // Replay a period (the last hour to the next, UTC): every event of the user in it, by id.
    const minute = (offset: number) => new Date(Date.now() + offset * 60_000).toISOString().slice(0, 16);
    const period = page.getByRole("form", { name: "Replay a period" });
    await period.getByLabel("Replay from (UTC)").fill(minute(-60));
    await period.getByLabel("Until (UTC)").fill(minute(60));
    const outcome = events.locator(".replay-outcome");
    const before = await outcome.innerText();
    await period.getByRole("button", { name: "Replay the period" }).click();
    // The period's own answer, not the single replay's still on screen.
    await expect
      .poll(async () => ((await outcome.innerText()) === before ? "" : outcome.innerText()))
      .toMatch(new RegExp(`^\\d+ events? queued for delivery again to ${id}\\.$`));
    const count = Number((await events.locator(".replay-outcome").innerText()).split(" ")[0]);
    const all = await site.waitFor("/dev", 3 + count);
    const replayedIds = all.slice(3).map((received) => verifiedEvent(received, secret).id);
    expect(replayedIds).toContain(transferEvent.id);

    // Deliveries: every attempt, newest first, with its status, duration and the answer.
    const deliveries = page.getByRole("region", { name: "Deliveries", exact: true });
    await deliveries.getByLabel("Deliveries of").selectOption(id);
    // The log reloads itself every few seconds (and on Refresh): the replays' attempts arrive.
    await expect.poll(() => deliveries.locator("tbody tr").count(), { timeout: 20_000 }).toBe(3 + count);
    const times = await deliveries.locator('td[data-label="Time (UTC)"]').allInnerTexts();
    expect([...times].sort().reverse()).toEqual(times);
    const first = deliveries.locator("tbody tr").first();
    expect(await first.locator('td[data-label="Outcome"]').innerText()).toBe("HTTP 200 delivered");
    expect(await first.locator('td[data-label="Answer (first 1 KiB)"]').innerText()).toBe('{"ok":true}');
    expect(await first.locator('td[data-label="Duration"]').innerText()).toMatch(/^\d+ ms$/);

    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-developers.png"), fullPage: true });
    await page.context().close();
  });

  it("edits, disables, enables, rotates the secret (the new one signs) and deletes after a confirmation", async () => {
    const page = await open("acme", { width: 1366, height: 900 });
    const panel = page.getByRole("region", { name: "Webhook endpoints", exact: true });
    const { id, secret: firstSecret, shown } = await addEndpoint(page, `${site.url}/edit`, "all", "To edit");
    await shown.getByRole("button", { name: "I have saved it" }).click();
    const row = panel.locator(`tr[data-id="${id}"]`);
    expect(await row.locator('td[data-label="Events"]').innerText()).toBe("All events");

    await row.getByRole("button", { name: `Edit ${id}` }).click();
    const form = page.getByRole("form", { name: `Edit endpoint ${id}` });
    expect(await form.getByLabel("Endpoint URL").inputValue()).toBe(`${site.url}/edit`);
    await form.getByLabel("Description").fill("Edited description");
    await form.getByRole("button", { name: "Save endpoint" }).click();
    await expect.poll(() => row.innerText()).toContain("Edited description");

    await row.getByRole("button", { name: `Disable ${id}` }).click();
    await expect.poll(() => row.locator('td[data-label="Status"]').innerText()).toBe("Disabled");
    await row.getByRole("button", { name: `Enable ${id}` }).click();
    await expect.poll(() => row.locator('td[data-label="Status"]').innerText()).toBe("Enabled");

    await row.getByRole("button", { name: `Rotate secret of ${id}` }).click();
    const rotated = page.getByRole("region", { name: new RegExp(`New signing secret of ${id}`) });
    await rotated.waitFor();
    const newSecret = (await rotated.locator("code.secret").innerText()).trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(firstSecret);
    await rotated.getByRole("button", { name: "I have saved it" }).click();
    await expect
      .poll(() => row.locator('td[data-label="Secret"]').innerText())
      .toMatch(/^Rotated: the old one signs too until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    // After the rotation the new secret verifies what the endpoint receives.
    const test = page.getByRole("region", { name: "Send test event", exact: true });
    await test.getByLabel("Event type").selectOption("refund.succeeded");
    await test.getByLabel("To endpoint").selectOption(id);
    await test.getByRole("button", { name: "Send test event" }).click();
    const [received] = await site.waitFor("/edit", 1, 20_000);
    expect(verifiedEvent(received as ReceivedWebhook, newSecret)).toMatchObject({
      type: "refund.succeeded",
      livemode: false,
    });

    await row.getByRole("button", { name: `Delete ${id}` }).click();
    await row.getByRole("button", { name: "Keep it" }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: `Delete ${id}` }).click();
    await row.getByRole("button", { name: `Yes, delete ${id}` }).click();
    await expect.poll(() => panel.locator(`tr[data-id="${id}"]`).count()).toBe(0);
    await page.context().close();
  });

  it("shows another merchant none of acme's endpoints or events", async () => {
    const page = await open("cafe", { width: 1366, height: 900 });
    const panel = page.getByRole("region", { name: "Webhook endpoints", exact: true });
    await panel.getByText("No webhook endpoints yet").waitFor();
    await page.getByRole("region", { name: "Events", exact: true }).getByText("No events yet.").waitFor();
    expect(await page.locator("body").innerText()).not.toContain(site.url);
    await page.context().close();
  });

  it("works for a partner on a phone: one column, no sideways scroll, axe clean", async () => {
    const page = await open("bolt", { width: 390, height: 844 }, true);
    const { id, shown } = await addEndpoint(
      page,
      `${site.url}/phone`,
      ["transfer.received", "payout.succeeded"],
      "Phone",
    );
    await shown.getByRole("button", { name: "I have saved it" }).click();
    const row = page
      .getByRole("region", { name: "Webhook endpoints", exact: true })
      .locator(`tr[data-id="${id}"]`);
    const subscribed = (await row.locator('td[data-label="Events"]').innerText()).split(", ");
    expect(subscribed.sort()).toEqual(["payout.succeeded", "transfer.received"]);
    const test = page.getByRole("region", { name: "Send test event", exact: true });
    await test.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => test.locator(".test-outcome").innerText(), { timeout: 25_000 })
      .toMatch(/HTTP 200 delivered/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: docs("dashboard-developers-phone.png"), fullPage: true });
    await page.context().close();
  });

  it("kept to its policy and its origin all along", () => {
    expect(problems.flat()).toEqual([]);
  });
});
