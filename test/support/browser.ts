import { type Browser, chromium, type Page } from "playwright-core";

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
