/**
 * Clients compute signatures over JSON text, and PHP clients produce `json_encode`'s default
 * form: `/` escaped as `\/` and every non-ASCII UTF-16 unit as a lowercase `\uXXXX` escape.
 */
export function compactJson(value: unknown): string {
  return JSON.stringify(value);
}

export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, "\\/")
    .replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
