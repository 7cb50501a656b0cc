import { RequestFailed } from "../../api/client.ts";

/**
 * What a refusal means, in words a merchant can act on: the catalogue code and field the API
 * gives, never its raw text (a code like OUT_OF_RANGE or a field name means nothing on a page).
 */
const byCodeAndField: Record<string, string> = {
  "INVALID_URL url":
    "The URL must be a public https address (http and private or loopback addresses are allowed only for test-mode endpoints).",
  "BLANK url": "Enter the URL that should receive the events.",
  "TOO_LONG url": "The URL is too long: at most 2,048 characters.",
  "BLANK events": "Choose at least one event type, or all events.",
  "INVALID_VALUE events": "One of the chosen event types is not in the catalogue.",
  "TOO_LONG description": "The description is too long: at most 255 characters.",
  "OUT_OF_RANGE endpoints":
    "You have as many webhook endpoints as allowed: delete one before adding another.",
  "OUT_OF_RANGE events": "That range holds too many events to replay at once: choose a shorter period.",
  "BLANK to": "Give both ends of the period to replay, or choose events by id.",
  "INVALID_VALUE type": "That event type is not in the catalogue.",
  "INVALID_VALUE from": "The start of the period is not a valid date and time.",
  "INVALID_VALUE to": "The end of the period is not a valid date and time.",
};

const byCode: Record<string, string> = {
  NOT_FOUND:
    "That endpoint or event no longer exists (it may have been deleted in another tab). Reload the list.",
  RATE_LIMITED: "Too many requests just now: wait a minute and try again.",
};

export function refusalWords(error: unknown, fallback: string): string {
  if (!(error instanceof RequestFailed)) return fallback;
  const code = error.code ?? "";
  return byCodeAndField[`${code} ${error.field ?? ""}`] ?? byCode[code] ?? fallback;
}
