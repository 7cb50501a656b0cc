import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";

/** The dashboard as its sources are now (the build script skips a build that is up to date). */
export async function buildDashboard(): Promise<void> {
  const repository = fileURLToPath(new URL("../..", import.meta.url));
  await promisify(execFile)("node", ["packages/dashboard/scripts/build-if-stale.mjs"], { cwd: repository });
}

/**
 * What a page must never do: break its policy, log an error, or talk to another origin; each as it
 * happens, into the list returned.
 */
export function pageProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`securitypolicyviolation ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    // Asking whether a session exists answers 401 when there is none: Chromium logs every 4xx.
    if (message.type() === "error" && !/status of 401/.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== origin) problems.push(`foreign request ${request.url()}`);
  });
  return problems;
}

/** Debian's Chromium (never a downloaded browser), headless, with no background network traffic. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env["PURSE_CHROMIUM"] ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** How a test opens the dashboard: the window's size, a phone's touch and density, what watches the page. */
export interface DashboardWindow {
  readonly viewport: { width: number; height: number };
  readonly phone?: boolean;
  readonly timeoutMs?: number;
  /** Called before the page loads, to listen for its errors. */
  readonly watch?: (page: Page) => void;
}

/**
 * The dashboard of `baseUrl` in a new browser context, signed in as `login` (the sample world's
 * password `<login>-pass`), once its balances have loaded.
 */
export async function signedInDashboard(
  browser: Browser,
  baseUrl: string,
  login: string,
  window: DashboardWindow,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: window.viewport,
    ...(window.phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(window.timeoutMs ?? 15_000);
  const page = await context.newPage();
  window.watch?.(page);
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel("Login", { exact: true }).fill(login);
  await page.getByLabel("Password", { exact: true }).fill(`${login}-pass`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("region", { name: "Balances", exact: true }).waitFor();
  return page;
}
