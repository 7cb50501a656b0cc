/**
 * Display helpers on the API's exact decimal strings. Nothing here parses an amount into a
 * number: a float would round large balances and sub-cent values, so formatting is text only.
 */

const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "1234567.50" → "1,234,567.50"; anything that is not a plain decimal is shown as it came. */
export function groupDigits(amount: string): string {
  const parts = decimalPattern.exec(amount);
  if (!parts) return amount;
  const [, sign = "", whole = "", fraction] = parts;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

export function displayAmount(amount: string, currency: string): string {
  return `${groupDigits(amount)} ${currency}`;
}

/** "2026-11-26T19:40:01.000Z" or "2026-11-26 19:40:01" → "2026-11-26 19:40:01" (UTC). */
export function displayTime(timestamp: string): string {
  return timestamp
    .replace("T", " ")
    .replace(/(\.\d+)?Z$/, "")
    .slice(0, 19);
}

/** A calendar day (YYYY-MM-DD) `days` before `today`, by the UTC calendar. */
export function daysBefore(today: Date, days: number): string {
  const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - days));
  return day.toISOString().slice(0, 10);
}
