import { type CheckoutPageView, errorCatalogue } from "@purse/engine";
import { type Html, html, raw } from "./html.ts";
import { pageStyle } from "./page-style.ts";
import type { PayerMessage } from "./payer-messages.ts";

/** This answer's Content-Security-Policy nonces (helmet makes them per request). */
export interface PageNonces {
  readonly script: string;
  readonly style: string;
}

export interface PageContext {
  readonly token: string;
  readonly payPath: string;
  readonly captcha: boolean;
  readonly nonces: PageNonces;
}

function layout(
  title: string,
  body: Html,
  nonces: PageNonces,
  scripts: Html = raw(""),
  head: Html = raw(""),
): string {
  return `<!doctype html>${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="csp-nonce" content="${nonces.style}">
${head}
<title>${title}</title>
<style nonce="${nonces.style}">${raw(pageStyle)}</style>
</head>
<body>
<div class="shell">
  <header class="brand"><span class="lock" aria-hidden="true"><svg width="14" height="16" viewBox="0 0 14 16" fill="currentColor"><path d="M7 0a4 4 0 0 0-4 4v3H2a2 2 0 0 0-2 2v5a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-1V4a4 4 0 0 0-4-4Zm-2 4a2 2 0 1 1 4 0v3H5V4Z"/></svg></span> Purse <small>Secure payment</small></header>
  <main class="card">${body}</main>
  <p class="note">Purse never asks for your password outside this page. Check the address bar before you sign in.</p>
</div>
${scripts}
</body>
</html>`.html
  }`;
}

/** The payment form: sign in as the owner of the paying wallet, then Pay or Cancel. */
export function checkoutPage(view: CheckoutPageView, context: PageContext, error?: PayerMessage): string {
  const action = `${context.payPath}/${encodeURIComponent(context.token)}`;
  const body = html`
  ${view.livemode ? "" : html`<p class="test-mode" role="note"><strong>Test payment</strong>: test money only; nothing here is charged.</p>`}
  <h1>Pay ${view.merchantName}</h1>
  <p class="amount">${view.currencyPrefix}${view.amount}<span>${view.currency}</span></p>
  <dl>
    <dt>From wallet</dt><dd>${view.walletFrom}</dd>
    <dt>Merchant fee</dt><dd>${view.commission} ${view.currency}</dd>
    <dt>Merchant receives</dt><dd>${view.merchantReceives} ${view.currency}</dd>
    <dt>Link expires</dt><dd><time datetime="${view.expiresAtIso}">${view.expiresAt} UTC</time></dd>
  </dl>
  <form id="pay-form" method="post" action="${action}" novalidate>
    <input type="hidden" name="token" value="${context.token}">
    <label for="login">Login</label>
    <input id="login" name="login" type="text" autocomplete="username" required autofocus>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    ${context.captcha ? html`<div class="captcha"><altcha-widget challenge="/api/processing/captcha" name="captcha"></altcha-widget></div>` : ""}
    <div id="form-error" class="alert" role="alert" aria-live="assertive" tabindex="-1"${error ? "" : raw(" hidden")}>
      <p id="form-error-payer" class="payer">${error?.payer}</p>
      <p id="form-error-reason" class="reason">${error?.reason ? `Reason: ${error.reason}` : ""}</p>
    </div>
    <div class="actions">
      <button class="pay" type="submit" name="action" value="pay">Pay</button>
      <button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
    </div>
  </form>`;
  const scripts = html`
${context.captcha ? html`<script type="module" nonce="${context.nonces.script}" src="${context.payPath}-assets/altcha.js"></script>` : ""}
<script type="module" nonce="${context.nonces.script}" src="${context.payPath}-assets/pay.js"></script>`;
  return layout(`Pay ${view.merchantName ?? ""} · Purse`, body, context.nonces, scripts);
}

const states = {
  unknown: [
    "This payment link is not valid",
    "Check the link you were given, or ask the shop for a new one.",
  ],
  expired: [
    "This payment link has expired",
    "Payment links are valid for 30 minutes. Ask the shop for a new one.",
  ],
  paid: [
    "This payment is complete",
    "Nothing more to do: the payment went through. You can close this page.",
  ],
  cancelled: ["This payment was cancelled", "No money moved. Ask the shop for a new link to pay."],
} as const;

/** The API's text for a link that cannot be paid, kept beneath the plain sentence as the reason. */
const reasons: Partial<Record<keyof typeof states, string>> = {
  unknown: errorCatalogue.NOT_FOUND.message,
  expired: errorCatalogue.CHECKOUT_EXPIRED.message,
};

/** A clear page for a link that cannot be paid (unknown, expired, already paid or cancelled). */
export function closedPage(state: keyof typeof states, nonces: PageNonces, view?: CheckoutPageView): string {
  const [title, text] = states[state];
  const summary =
    view?.amount && view.merchantName
      ? html`<p>${view.merchantName}: ${view.currencyPrefix}${view.amount} ${view.currency}</p>`
      : "";
  const reason = reasons[state];
  return layout(
    `${title} · Purse`,
    html`${view && !view.livemode ? html`<p class="test-mode" role="note"><strong>Test payment</strong></p>` : ""}<div class="status"><div class="icon ${state === "paid" ? "ok" : ""}" aria-hidden="true">${
      state === "paid" ? "✓" : "ⓘ"
    }</div><h1>${title}</h1>${summary}<p>${text}</p>${
      reason ? html`<p class="reason">Reason: ${reason}</p>` : ""
    }</div>`,
    nonces,
  );
}

/** Shown after paying or cancelling when the shop gave no address to return to. */
export function donePage(status: "SUCCESS" | "CANCEL", nonces: PageNonces): string {
  return closedPage(status === "SUCCESS" ? "paid" : "cancelled", nonces);
}

/**
 * After a form post without JavaScript: the payment is done, and the browser goes on to the
 * shop's address by itself. Answering here instead of redirecting keeps the shop's address out
 * of the form submission's redirect chain, which `form-action 'self'` would block.
 */
export function returnToShopPage(status: "SUCCESS" | "CANCEL", address: string, nonces: PageNonces): string {
  const [title] = states[status === "SUCCESS" ? "paid" : "cancelled"];
  return layout(
    `${title} · Purse`,
    html`<div class="status"><h1>${title}</h1><p>Taking you back to the shop…</p>
<p><a href="${address}">Return to the shop</a></p></div>`,
    nonces,
    raw(""),
    html`<meta http-equiv="refresh" content="0; url=${address}">`,
  );
}
