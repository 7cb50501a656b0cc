import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parseCsv, sumDecimals } from "@purse/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const repository = fileURLToPath(new URL("../..", import.meta.url));
const builtPage = fileURLToPath(new URL("../../packages/dashboard/dist/index.html", import.meta.url));
const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/** `npm run build` makes packages/dashboard/dist (CI builds before testing); a fresh checkout builds it here. */
async function ensureDashboardBuilt(): Promise<void> {
  if (existsSync(builtPage)) return;
  await promisify(execFile)("npm", ["run", "build", "-w", "@purse/dashboard"], { cwd: repository });
}

/** What a page must never do: break its policy, log an error, or talk to another origin. */
interface Watch {
  readonly violations: string[];
  readonly errors: string[];
  readonly foreign: string[];
}

function watch(page: Page, origin: string): Watch {
  const seen: Watch = { violations: [], errors: [], foreign: [] };
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`securitypolicyviolation ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/securitypolicyviolation|Content Security Policy/i.test(text)) seen.violations.push(text);
    // Asking whether a session exists answers 401 when there is none: Chromium logs every 4xx.
    else if (!/status of 401/.test(text)) seen.errors.push(text);
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== origin) seen.foreign.push(request.url());
  });
  return seen;
}

/** A decimal without its trailing fraction zeros: REST answers 238, GraphQL "238.00". */
function decimal(value: unknown): string {
  const text = String(value);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

interface TransactionPage {
  transactions: {
    edges: { node: ApiTransaction }[];
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
  };
}

interface ApiTransaction {
  id: number;
  amount: string;
  amountFrom: string;
  amountTo: string;
  currency: { code: string } | null;
}

describe("the merchant dashboard in a browser", { timeout: 60_000 }, () => {
  let api: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let seen: Watch;
  let acme: string;

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const answer = await api.call("POST", "/graphql", { token: acme, body: { query, variables } });
    if (answer.body?.errors) throw new Error(JSON.stringify(answer.body.errors));
    return answer.body.data as T;
  }

  /** Every row of GraphQL `transactions` for a filter, newest first, page by page. */
  async function allTransactions(filter: Record<string, string>): Promise<ApiTransaction[]> {
    const rows: ApiTransaction[] = [];
    let after: string | null = null;
    for (;;) {
      const { transactions }: TransactionPage = await graphql<TransactionPage>(
        `query ($after: String, $filter: TransactionFilter) {
          transactions(first: 100, after: $after, filter: $filter) {
            edges { node { id amount amountFrom amountTo currency { code } } }
            pageInfo { endCursor hasNextPage }
          }
        }`,
        { after, filter },
      );
      rows.push(...transactions.edges.map((edge) => edge.node));
      if (!transactions.pageInfo.hasNextPage) return rows;
      after = transactions.pageInfo.endCursor;
    }
  }

  async function transfer(from: string, to: string, amount: string, description: string): Promise<number> {
    const answer = await api.call("POST", "/api/transaction/transfer", {
      token: acme,
      body: { wallet_from: from, wallet_to: to, amount, description },
    });
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return Number(answer.body.data.id ?? answer.body.data.transaction_id);
  }

  async function signIn(target: Page, login: string, password: string): Promise<void> {
    await target.getByLabel("Login", { exact: true }).fill(login);
    await target.getByLabel("Password", { exact: true }).fill(password);
    await target.getByRole("button", { name: "Sign in" }).click();
  }

  const table = () => page.getByRole("table", { name: "Transactions" });
  const rowIds = async () =>
    (
      await table()
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")))
    )
      .filter((id): id is string => id !== null)
      .map(Number);

  beforeAll(async () => {
    await ensureDashboardBuilt();
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
    // More than a page (20) of history, in two currencies, with a comma and a quote to escape.
    for (let index = 1; index <= 22; index += 1)
      await transfer("U100000010", "U100000020", `${index}.0${index % 10}`, `Order ${index}`);
    await transfer("E100000011", "E100000021", "12.34", 'Invoice "7", Paris');
    await createCheckout(api, { url: api.url }, "42.00");
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    seen = watch(page, new URL(api.url).origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it("signs in with Login and Password; a wrong password is refused in words", async () => {
    const response = await page.goto(`${api.url}/dashboard`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await signIn(page, "acme", "not-the-password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).not.toBe("");
    expect(await page.getByRole("region", { name: "Balances" }).count()).toBe(0);

    await signIn(page, "acme", "acme-pass");
    await page.getByRole("region", { name: "Balances" }).waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    // The session is an HttpOnly, SameSite=Strict cookie; nothing is kept in web storage.
    const cookie = (await context.cookies()).find((item) => item.name === "purse_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(cookie?.value ?? "no cookie");
  });

  it("shows each wallet's number, currency and balance exactly as GET /api/wallets", async () => {
    const wallets = await api.call("GET", "/api/wallets", { token: acme });
    const expected = (
      wallets.body.data as { number: string; amount: string; currency: { code: string } }[]
    ).map((wallet) => `${wallet.number} ${wallet.amount} ${wallet.currency.code}`);
    expect(expected.length).toBeGreaterThan(0);
    const region = page.getByRole("region", { name: "Balances" });
    await expect
      .poll(async () =>
        region
          .locator(".wallet")
          .evaluateAll((items) =>
            items.map((item) =>
              [".wallet-number", ".amount", ".currency"]
                // The page groups thousands for reading (1,234.50); the digits are the API's.
                .map((part) => item.querySelector(part)?.textContent?.replaceAll(",", "") ?? ""),
            ),
          )
          .then((rows) =>
            rows.map(([number, amount, currency]) => `${number} ${decimal(amount)} ${currency}`),
          ),
      )
      .toEqual(expected);
  });

  it("draws a Balance over time chart per wallet", async () => {
    const charts = page.getByRole("img", { name: /^Balance over time/ });
    await expect.poll(() => charts.count()).toBe(2);
    // Something was drawn: the canvas holds pixels that are not transparent.
    const painted = await charts
      .first()
      .locator("canvas")
      .evaluate((canvas: HTMLCanvasElement) => {
        const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
        let count = 0;
        for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) count += 1;
        return count;
      });
    expect(painted).toBeGreaterThan(500);
  });

  it("lists the history newest first, and shows a transfer made over REST without a reload", async () => {
    const history = await allTransactions({});
    await expect
      .poll(() => rowIds().then((ids) => ids.slice(0, 20)))
      .toEqual(history.slice(0, 20).map((t) => t.id));

    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    const id = await transfer("U100000010", "U100000020", "3.21", "Live one");
    await expect.poll(() => rowIds().then((ids) => ids[0])).toBe(id);
    const wallets = await api.call("GET", "/api/wallets", { token: acme });
    const usd = (wallets.body.data as { number: string; amount: string | number }[]).find(
      (w) => w.number === "U100000010",
    );
    await expect
      .poll(() =>
        page
          .locator('[data-wallet="U100000010"] .amount')
          .textContent()
          .then((text) => decimal(text?.replaceAll(",", ""))),
      )
      .toBe(usd?.amount === undefined ? "missing" : decimal(usd.amount));
    expect(navigations).toBe(0);
  });

  it("filters by From, Until, Wallet, Type and Status, and pages with Next page", async () => {
    const all = await allTransactions({});
    expect(all.length).toBeGreaterThan(20);
    await page.getByRole("button", { name: "Next page" }).click();
    await expect.poll(rowIds).toEqual(all.slice(20, 40).map((t) => t.id));
    await page.getByRole("button", { name: "First page" }).click();
    await expect.poll(rowIds).toEqual(all.slice(0, 20).map((t) => t.id));

    await page.getByLabel("Wallet", { exact: true }).selectOption("E100000011");
    await page.getByLabel("Type", { exact: true }).selectOption("TRANSFER");
    await page.getByLabel("Status", { exact: true }).selectOption("SUCCESS");
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel("From", { exact: true }).fill(today);
    await page.getByLabel("Until", { exact: true }).fill(today);
    await page.getByRole("button", { name: "Apply filters" }).click();
    const euro = await allTransactions({
      walletNumber: "E100000011",
      type: "TRANSFER",
      status: "SUCCESS",
      from: today,
      until: today,
    });
    expect(euro.length).toBe(1);
    await expect.poll(rowIds).toEqual(euro.map((t) => t.id));
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await expect
      .poll(() => page.getByRole("list", { name: "Totals of the filtered transactions" }).textContent())
      .toMatch(/^EUR In 0\.00 Out -12\.\d\d Net -12\.\d\d \(1 completed transaction of 1\)$/);

    // A filter that makes no sense is named in the form, and nothing is sent.
    await page.getByLabel("From", { exact: true }).fill("2030-01-02");
    await page.getByLabel("Until", { exact: true }).fill("2030-01-01");
    await page.getByRole("button", { name: "Apply filters" }).click();
    expect(
      await page.getByRole("form", { name: "Filter transactions" }).getByRole("alert").textContent(),
    ).toBe("From must not be after Until.");
    await page.getByRole("button", { name: "Clear" }).click();
    await expect.poll(rowIds).toEqual(all.slice(0, 20).map((t) => t.id));
  });

  it("exports the whole filtered range as CSV whose rows and sums reconcile with the API", async () => {
    await page.getByLabel("Wallet", { exact: true }).selectOption("U100000010");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const expected = await allTransactions({ walletNumber: "U100000010" });
    expect(expected.length).toBeGreaterThan(20);
    await expect.poll(rowIds).toEqual(expected.slice(0, 20).map((t) => t.id));

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("transactions.csv");
    const rows = parseCsv(await readFile((await download.path()) ?? "", "utf8"));
    expect(rows[0]).toEqual([
      "id",
      "created_at",
      "type",
      "status",
      "wallet_from",
      "wallet_to",
      "currency",
      "amount_from",
      "amount_to",
      "commission",
      "external_id",
      "refund_of",
      "description",
    ]);
    const body = rows.slice(1);
    // Every row the API has for this filter (not just the page on screen), in the same order.
    expect(body.map((row) => Number(row[0]))).toEqual(expected.map((t) => t.id));
    const byId = new Map(body.map((row) => [Number(row[0]), row]));
    // amount_from is what left the sender (a transfer's amount plus its commission), amount_to
    // what the receiver got: the API's amountFrom and amountTo, not its amount.
    for (const transaction of expected) {
      expect(byId.get(transaction.id)?.slice(7, 9)).toEqual([transaction.amountFrom, transaction.amountTo]);
    }
    // The totals on screen are the export's own sums: money in is amount_to of the completed rows
    // into the wallet, money out amount_from of those out of it, net the difference.
    const done = body.filter((row) => row[3] === "SUCCESS");
    const moneyIn = sumDecimals([
      "0.00",
      ...done.filter((row) => row[5] === "U100000010").map((row) => row[8] ?? ""),
    ]);
    const moneyOut = sumDecimals([
      "0.00",
      ...done.filter((row) => row[4] === "U100000010").map((row) => row[7] ?? ""),
    ]);
    const shown = await page
      .getByRole("list", { name: "Totals of the filtered transactions" })
      .locator('[data-currency="USD"]');
    const figure = async (part: string) =>
      (await shown.locator(part).innerText()).replaceAll(",", "").replace("+", "");
    expect(await figure(".total-in")).toBe(moneyIn);
    expect(await figure(".total-out")).toBe(`-${moneyOut}`);
    expect(await figure(".total-net")).toBe(sumDecimals([moneyIn, `-${moneyOut}`]));
    await page.getByRole("button", { name: "Clear" }).click();
  });

  it("shows the checkout links with their status, and a statement for a period", async () => {
    const section = page.getByRole("region", { name: "Checkout links" });
    await expect.poll(() => section.locator("tbody tr").first().textContent()).toContain("42.00 USD");
    expect(await section.locator("tbody tr").first().textContent()).toContain("Open");

    await page.getByRole("button", { name: "Show statement" }).click();
    const statement = page.getByRole("definition").filter({ hasText: "USD" });
    await expect.poll(() => statement.count()).toBe(4);
    const shown = await page.locator(".statement dd.num").allTextContents();
    const [opening, moneyIn, moneyOut, closing] = shown.map((text) =>
      text.replace(" USD", "").replaceAll(",", ""),
    );
    // Opening balance + money in − money out = closing balance, as the API's own statement says.
    expect(sumDecimals([opening ?? "", moneyIn ?? "", `-${moneyOut}`])).toBe(sumDecimals([closing ?? ""]));
  });

  it("looks right on a desktop and on a phone (screenshots for docs/dashboard.md)", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: docs("dashboard-desktop.png"), fullPage: true });
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      storageState: await context.storageState(),
    });
    const phoneSeen = watch(phone, new URL(api.url).origin);
    await phone.goto(`${api.url}/dashboard`);
    await phone
      .getByRole("img", { name: /^Balance over time/ })
      .first()
      .waitFor();
    await phone.getByRole("table", { name: "Transactions" }).locator("tbody tr").first().waitFor();
    // The phone layout is one column: nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: docs("dashboard-phone.png") });
    await phone.close();
    expect(phoneSeen).toEqual({ violations: [], errors: [], foreign: [] });
  });

  it("signs out: the sign-in screen comes back and the old session cookie is refused", async () => {
    const old = (await context.cookies()).find((item) => item.name === "purse_session")?.value;
    expect(old).toBeTruthy();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("You are signed out.");

    const replay = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { cookie: `purse_session=${old}`, "x-purse-csrf": "1", "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { name } }" }),
    });
    expect(replay.status).toBe(401);
    expect((await replay.json()).errors[0].extensions.code).toBe("UNAUTHORIZED");
  });

  it("turns a session revoked elsewhere into the sign-in screen with a clear message", async () => {
    await signIn(page, "acme", "acme-pass");
    await page.getByRole("region", { name: "Balances" }).waitFor();
    const cookie = (await context.cookies()).find((item) => item.name === "purse_session")?.value;
    // The same session ended from another place (another tab's Sign out).
    const ended = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { cookie: `purse_session=${cookie}`, "x-purse-csrf": "1", "content-type": "application/json" },
      body: JSON.stringify({ query: "mutation { signOut }" }),
    });
    expect(ended.status).toBe(200);
    // The next request finds out (or the live stream, which the server ends, finds out first).
    await page
      .getByRole("button", { name: "Apply filters" })
      .click({ timeout: 2000 })
      .catch(() => undefined);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("Your session has ended");
    expect(await page.textContent("body")).not.toMatch(/Error:|at \w+ \(|stack/i);
  });

  it("kept to its policy and its origin all along", () => {
    expect(seen).toEqual({ violations: [], errors: [], foreign: [] });
  });
});
