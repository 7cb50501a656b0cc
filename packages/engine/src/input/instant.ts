import { PurseError } from "../errors/index.ts";

/** A calendar day, or an instant on it: hours and minutes, optional seconds and fraction, optional zone. */
const instantPattern =
  /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/;

/**
 * An ISO 8601 date (`2026-11-26`) or date-time (`2026-11-26T10:00:00Z`; without a zone, UTC) as a
 * client sends it to a search or a statement. Only real calendar days of years 0000 to 9999:
 * `new Date` alone takes `2020-02-30` as March 1st, `1` as 2001 and `March 7, 2020` too, and
 * years PostgreSQL cannot store. Anything else is 422 `This value is not a valid date.` on `field`.
 */
export function parseInstant(
  text: string,
  field: string,
): { readonly date: Date; readonly dateOnly: boolean } {
  const match = instantPattern.exec(text);
  const day = match?.[1];
  const start = new Date(`${day}T00:00:00Z`);
  // A day that does not exist is either no date at all or another day (2020-02-30 is March 1st).
  if (!match || !day || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) {
    throw new PurseError("INVALID_DATE", field);
  }
  const [, , hours, minutes, seconds = "00", fraction = "", zone = "Z"] = match;
  if (hours === undefined) return { date: start, dateOnly: true };
  const milliseconds = fraction === "" ? "" : fraction.slice(0, 4).padEnd(4, "0");
  return { date: new Date(`${day}T${hours}:${minutes}:${seconds}${milliseconds}${zone}`), dateOnly: false };
}

/**
 * A statement's bound: a day means its start (UTC); as the end (`to`), a day is included whole,
 * so the bound is the next day's start (exclusive). An instant is itself.
 */
export function statementBound(text: string, field: string, end: boolean): Date {
  const { date, dateOnly } = parseInstant(text, field);
  return dateOnly && end ? new Date(date.getTime() + 86_400_000) : date;
}
