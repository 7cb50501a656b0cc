import { stringify } from "csv-stringify/sync";

/**
 * Free text (a description, a label, an order id) as a spreadsheet must show it: text starting
 * with = + - @, a tab or a carriage return would run as a formula, so it is prefixed with a
 * single quote, as OWASP's CSV injection guidance advises. Amounts and other values Purse writes
 * itself are not text: a negative amount stays a number.
 */
export function csvText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * CSV lines (RFC 4180: CRLF, a field quoted when it holds a comma, a quote or a line break), one
 * per record, each ending in CRLF. Free-text fields must have passed through `csvText`.
 */
export function csvLines(records: readonly (readonly string[])[]): string {
  // csv-stringify quotes a field holding the record delimiter (CRLF) but not a bare LF; readers
  // that split lines on LF would cut such a field in two, so any line break is quoted.
  return stringify([...records], { record_delimiter: "windows", quoted_match: /[\r\n]/ });
}
