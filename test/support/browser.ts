import { type Browser, chromium } from "playwright-core";

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
