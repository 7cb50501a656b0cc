import { PurseError } from "../errors/index.ts";
import {
  type Decimal,
  divideHalfUp,
  formatScaledInteger,
  parseDecimal,
  pow10,
  toScaledInteger,
} from "./decimal.ts";

/**
 * An amount of one currency in minor units (10^-precession of the unit). All arithmetic on money
 * is bigint arithmetic on minor units.
 */
export type MinorUnits = bigint;

/**
 * The longest amount text a client may send. No currency's maximum needs more (20 whole digits and
 * 18 decimals fit); a longer text is refused before any digit is converted, so a megabyte of zeros
 * costs nothing. The bound is on the raw text, padding spaces included.
 */
export const maxAmountLength = 40;

/** Reads a client's amount for a currency: blank, non-numeric, too precise and non-positive are errors. */
export function parseAmount(
  text: string | undefined | null,
  precession: number,
  field = "amount",
): MinorUnits {
  const value = checkAmountSyntax(text, field);
  const minor = toScaledInteger(value, precession);
  if (minor === null) throw new PurseError("TOO_PRECISE", field, { precession });
  return minor;
}

/** Checks an amount's syntax before the currency (and so the precession) is known. */
export function checkAmountSyntax(text: string | undefined | null, field = "amount"): Decimal {
  if (text === undefined || text === null || text.trim() === "") throw new PurseError("BLANK", field);
  if (text.length > maxAmountLength) throw new PurseError("NOT_NUMERIC", field);
  const value = parseDecimal(text);
  if (!value) throw new PurseError("NOT_NUMERIC", field);
  if (value.coefficient <= 0n) throw new PurseError("NOT_POSITIVE", field);
  return value;
}

/**
 * An amount its contract has read (`paymentAmount`: a positive decimal's text) in minor units of
 * its currency, now that the precession is known: more decimals than it allows is refused.
 */
export function amountInMinorUnits(text: string, precession: number, field = "amount"): MinorUnits {
  const value = parseDecimal(text);
  const minor = value && toScaledInteger(value, precession);
  if (minor === null || minor === undefined) throw new PurseError("TOO_PRECISE", field, { precession });
  return minor;
}

/** Converts trusted decimal text (fixtures, configuration) to minor units; throws on lost digits. */
export function decimalTextToMinor(text: string, precession: number): MinorUnits {
  const value = parseDecimal(text);
  const minor = value && toScaledInteger(value, precession);
  if (minor === null || minor === undefined) {
    throw new RangeError(`"${text}" is not a decimal with at most ${precession} decimal places`);
  }
  return minor;
}

/** "12.50" for 1250n at precession 2. */
export function formatMinor(minor: MinorUnits, precession: number): string {
  return formatScaledInteger(minor, precession);
}

/**
 * The amount as a JSON number, only for response fields the spec types as numbers. The decimal
 * text is exact; the number is the nearest double to it, produced once at the edge.
 */
export function minorToJsonNumber(minor: MinorUnits, precession: number): number {
  return Number(formatScaledInteger(minor, precession));
}

/** `percent`% of `minor`, rounded half-up to a whole minor unit. */
export function percentOfHalfUp(minor: MinorUnits, percent: Decimal): MinorUnits {
  return divideHalfUp(minor * percent.coefficient, 100n * pow10(percent.scale));
}
