/**
 * Test mode's mark (contract: "Test mode"): a test client's `client_id`, `client_secret` and form
 * token, its access tokens, its checkout links and its wallets' numbers all start with it, so the
 * mode of a call is read off what the call carries before any database is asked, and a live
 * credential can never name test data (it is looked up in the live schema, where it is not).
 */
export const testPrefix = "test_";

export function isTestCredential(text: unknown): boolean {
  return typeof text === "string" && text.startsWith(testPrefix);
}

/** `text` marked as test mode's, when `test` says so. */
export function inMode(test: boolean, text: string): string {
  return test ? `${testPrefix}${text}` : text;
}
