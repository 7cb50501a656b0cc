/** The receiver a delivery goes to: `scheme://host[:port]` of its URL, as PostgreSQL computes it too. */
export const receiverPattern = "^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*";

export function receiverOf(url: string): string {
  return new RegExp(receiverPattern).exec(url)?.[0] ?? url;
}
