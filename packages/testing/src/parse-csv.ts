import { parse } from "csv-parse/sync";

/**
 * The export's CSV as rows of fields (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks). Records must end in CRLF, as the export writes them: a bare LF inside a record is
 * field text, never a record break.
 */
export function parseCsv(text: string): string[][] {
  return parse(text, { record_delimiter: "\r\n", relax_column_count: false }) as string[][];
}
