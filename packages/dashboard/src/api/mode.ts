/**
 * The dashboard's test-mode switch (docs/dashboard.md, "Test mode"). When on, every GraphQL request
 * of the signed-in page, the live-updates stream included, carries `Purse-Mode: test`, which the
 * server honours for the session cookie only (never for a bearer token). Only the switch's position
 * is kept, in this tab's sessionStorage; never a token.
 */

const storageKey = "purse-dashboard-mode";

let testModeOn = false;
let liveAnswerSeen: () => void = () => undefined;

/** The switch's position as this tab left it (off on a first visit or when storage is refused). */
export function storedTestMode(): boolean {
  try {
    return sessionStorage.getItem(storageKey) === "test";
  } catch {
    return false;
  }
}

export function storeTestMode(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(storageKey, "test");
    else sessionStorage.removeItem(storageKey);
  } catch {
    // Storage refused (private mode): the switch lasts as long as the page.
  }
}

/** Set by the signed-in page before its views load; off while signed out (sign-in is live). */
export function setTestModeRequests(on: boolean, onLiveAnswer: () => void = () => undefined): void {
  testModeOn = on;
  liveAnswerSeen = onLiveAnswer;
}

export function testModeRequests(): boolean {
  return testModeOn;
}

/** The header that switches a session's request to its test data, when the switch is on. */
export function modeHeaders(on: boolean): Record<string, string> {
  return on ? { "purse-mode": "test" } : {};
}

/** A test-mode request answered without `extensions.livemode: false`: nothing of it is shown. */
export const liveAnswerMessage =
  "Purse answered with live data while test mode is on, so nothing of it is shown. Reload the page.";

export function reportLiveAnswer(): void {
  liveAnswerSeen();
}
