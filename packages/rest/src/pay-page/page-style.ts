/** The page's look: calm, high-contrast (WCAG AA), readable on a phone, no external fonts. */
export const pageStyle = `
:root { color-scheme: light; --ink: #14213d; --muted: #4a5568; --line: #d5dbe5; --brand: #1d4ed8;
  --brand-ink: #ffffff; --danger: #b42318; --bg: #f3f5f9; --card: #ffffff; --ok: #067647; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  background: var(--bg); }
.shell { max-width: 440px; margin: 0 auto; padding: 24px 16px 48px; }
.brand { display: flex; align-items: center; gap: 8px; font-weight: 700; letter-spacing: .02em; margin-bottom: 16px; }
.brand .lock { display: inline-grid; place-items: center; width: 28px; height: 28px; border-radius: 8px;
  background: var(--brand); color: var(--brand-ink); font-size: 15px; }
.brand small { font-weight: 500; color: var(--muted); margin-left: auto; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 16px; padding: 24px;
  box-shadow: 0 1px 2px rgba(20, 33, 61, .06), 0 8px 24px rgba(20, 33, 61, .06); }
h1 { font-size: 1.15rem; margin: 0 0 4px; }
.amount { font-size: 2.25rem; font-weight: 750; margin: 4px 0 16px; font-variant-numeric: tabular-nums; }
.amount span { font-size: 1rem; font-weight: 600; color: var(--muted); margin-left: 6px; }
dl { display: grid; grid-template-columns: 1fr auto; gap: 6px 12px; margin: 0 0 20px; padding: 12px 0;
  border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); font-size: .95rem; }
dt { color: var(--muted); } dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
input[type=text], input[type=password] { width: 100%; padding: 10px 12px; font: inherit; color: var(--ink);
  border: 1px solid #8a94a6; border-radius: 10px; background: #fff; }
input:focus-visible, button:focus-visible { outline: 3px solid #93b4ff; outline-offset: 2px; }
.captcha { margin-top: 16px; }
.actions { display: grid; grid-template-columns: 2fr 1fr; gap: 10px; margin-top: 20px; }
button { font: inherit; font-weight: 650; padding: 12px 16px; border-radius: 10px; cursor: pointer; border: 1px solid transparent; }
button.pay { background: var(--brand); color: var(--brand-ink); }
button.pay:hover { background: #1e40af; }
button.cancel { background: #fff; color: var(--ink); border-color: #8a94a6; }
button[disabled] { opacity: .6; cursor: progress; }
.alert { margin: 16px 0 0; padding: 10px 12px; border-radius: 10px; background: #fef3f2; color: var(--danger);
  border: 1px solid #fda29b; }
.alert[hidden] { display: none; }
.alert p { margin: 0; }
.reason { color: var(--muted); font-size: .85rem; margin-top: 4px; }
.alert .reason { color: #7a271a; }
.note { color: var(--muted); font-size: .85rem; margin-top: 16px; }
.test-mode { margin: 0 0 16px; padding: 8px 12px; border-radius: 10px; background: #fffaeb; color: #7a2e0e;
  border: 1px solid #fedf89; font-size: .9rem; }
.status { text-align: center; padding: 8px 0; }
.status .icon { font-size: 2.5rem; }
.ok { color: var(--ok); }
`;
