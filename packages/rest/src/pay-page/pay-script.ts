import { payerSentencesByReason } from "./payer-messages.ts";

/**
 * The page's progressive enhancement: submit without reloading, keep the buttons disabled while
 * a request is in flight (one click, one payment), announce errors in plain words with the API's
 * text beneath as the reason, then follow the shop's address, but only an http(s) one (the engine
 * refuses anything else at creation; this is the second wall). Without JavaScript the form posts
 * to the same page and gets the same result.
 */
export function payScript(): string {
  return `
const sentences = ${JSON.stringify(payerSentencesByReason())};
const form = document.getElementById("pay-form");
const alertBox = document.getElementById("form-error");
const payerLine = document.getElementById("form-error-payer");
const reasonLine = document.getElementById("form-error-reason");
const buttons = form ? [...form.querySelectorAll("button")] : [];
let busy = false;

function showError(payer, reason) {
  payerLine.textContent = payer;
  reasonLine.textContent = reason ? "Reason: " + reason : "";
  alertBox.hidden = false;
  alertBox.focus?.();
}

function webAddress(text) {
  try {
    const url = new URL(text);
    const web = url.protocol === "https:" || url.protocol === "http:";
    return web && url.username === "" && url.password === "" ? url.href : null;
  } catch {
    return null;
  }
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (busy) return;
  const action = event.submitter?.value === "cancel" ? "cancel" : "pay";
  const data = new FormData(form);
  busy = true;
  buttons.forEach((button) => { button.disabled = true; });
  alertBox.hidden = true;
  try {
    const response = await fetch("/api/processing/pay", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        token: data.get("token"), login: data.get("login"), password: data.get("password"),
        captcha: data.get("captcha"), action,
      }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.ok && body.status) {
      // No address (or one that is not http/https): this page now shows how the payment ended.
      window.location.assign(webAddress(body.data.redirect_url) ?? window.location.href);
      return;
    }
    const reason = typeof body.message === "string" ? body.message : "";
    showError(sentences[reason] ?? sentences[""], reason);
  } catch {
    showError("The connection failed. Check your network and try again.", "");
  }
  busy = false;
  buttons.forEach((button) => { button.disabled = false; });
});
`;
}
