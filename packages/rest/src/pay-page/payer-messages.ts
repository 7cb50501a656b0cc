import { type ErrorCode, errorCatalogue } from "@purse/engine";

/**
 * What the payer reads first when the page refuses: what happened and what to do, in plain words.
 * The API's own text (the specification's, which support staff and the contract rely on) stays
 * beneath it as the reason.
 */
const payerSentences: Partial<Record<ErrorCode, string>> = {
  ROUTE_LOCKED:
    "This payment is already being processed. Wait a few seconds, then reload the page to see how it ended.",
  RATE_LIMITED: "There have been too many attempts. Wait a minute, then try again.",
  CAPTCHA_INVALID:
    "We could not confirm that you are a person. Tick the “I'm not a robot” box again, then press Pay.",
  HASH_NOT_VALID:
    "We could not sign you in to the paying wallet. Check your login and password: they must be those of the account that owns the wallet shown above.",
  PAY_INSUFFICIENT_FUNDS:
    "Your wallet does not have enough money for this payment. Add funds to it, then try again.",
  CHECKOUT_EXPIRED: "This payment link has expired. Ask the shop for a new one.",
  NOT_FOUND: "This payment link is not valid. Check the link, or ask the shop for a new one.",
  LOCK_UNAVAILABLE: "Payments are briefly unavailable. No money moved. Try again in a minute.",
  // Both share the API text "User is blocked", so they share one sentence too.
  SENDER_BLOCKED: "An account in this payment is blocked, so it cannot go through. Contact the shop.",
  RECIPIENT_BLOCKED: "An account in this payment is blocked, so it cannot go through. Contact the shop.",
  CURRENCY_DISABLED: "Payments in this currency are paused. Try again later, or contact the shop.",
  DIRECTION_INACTIVE: "This kind of payment is paused. Try again later, or contact the shop.",
};

const fallback = "The payment could not be completed. No money moved. Try again, or contact the shop.";

export interface PayerMessage {
  /** The plain sentence for the payer. */
  readonly payer: string;
  /** The API's text, shown beneath as the reason. */
  readonly reason: string;
}

export function payerMessage(code: ErrorCode, reason: string): PayerMessage {
  return { payer: payerSentences[code] ?? fallback, reason };
}

/** The same sentences keyed by the API's text, for the page script (the JSON answer has only text). */
export function payerSentencesByReason(): Record<string, string> {
  const byReason: Record<string, string> = { "": fallback };
  for (const [code, sentence] of Object.entries(payerSentences)) {
    byReason[errorCatalogue[code as ErrorCode].message] = sentence;
  }
  return byReason;
}
