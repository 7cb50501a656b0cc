/**
 * Hides the password of every `scheme://user:password@` in `text` (a URL, or a comma-separated
 * list of them), parseable or not: configuration is echoed in errors, and a rejected URL is the
 * one most likely to carry a password typed by hand.
 */
export function redactCredentials(text: string): string {
  return text.replace(/(\/\/[^/@:\s]*:)[^/@\s]*@/g, "$1***@");
}
