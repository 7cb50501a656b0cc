/**
 * The page's progressive enhancement: submit without reloading, keep the buttons disabled while
 * a request is in flight (one click, one payment), announce errors, then follow the redirect.
 * Without JavaScript the form posts to the same page and gets the same result.
 */
export const payScript = `
const form = document.getElementById("pay-form");
const error = document.getElementById("form-error");
const buttons = form ? [...form.querySelectorAll("button")] : [];
let busy = false;
form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (busy) return;
  const action = event.submitter?.value === "cancel" ? "cancel" : "pay";
  const data = new FormData(form);
  busy = true;
  buttons.forEach((button) => { button.disabled = true; });
  error.textContent = "";
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
      const target = body.data.redirect_url;
      window.location.assign(target || window.location.href);
      return;
    }
    error.textContent = body.message || "The payment could not be completed. Please try again.";
  } catch {
    error.textContent = "The connection failed. Check your network and try again.";
  }
  busy = false;
  buttons.forEach((button) => { button.disabled = false; });
  error.focus?.();
});
`;
