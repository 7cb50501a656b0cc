/**
 * Exact decimals as a bigint coefficient and a power-of-ten scale: value = coefficient / 10^scale.
 * Money never passes through a JS number; strings come in at the edges and leave as strings.
 */
export interface Decimal {
  readonly coefficient: bigint;
  readonly scale: number;
}

const DECIMAL_PATTERN = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const LEADING_DOT_PATTERN = /^([+-]?)\.(\d+)$/;

/** Parses a plain decimal text ("12", "-0.50", ".5"); returns null for anything else (exponents, blanks). */
export function parseDecimal(text: string): Decimal | null {
  const trimmed = text.trim();
  const match = DECIMAL_PATTERN.exec(trimmed) ?? dotMatch(trimmed);
  if (!match) return null;
  const [, sign = "", whole = "0", fraction = ""] = match;
  const coefficient = BigInt(`${whole}${fraction}`);
  return { coefficient: sign === "-" ? -coefficient : coefficient, scale: fraction.length };
}

function dotMatch(text: string): RegExpExecArray | null {
  const match = LEADING_DOT_PATTERN.exec(text);
  if (!match) return null;
  const [, sign = "", fraction = ""] = match;
  // Same groups as DECIMAL_PATTERN, with an implicit zero whole part.
  return Object.assign([text, sign, "0", fraction], { index: 0, input: text }) as RegExpExecArray;
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** The decimal as an integer count of 10^-precession units, or null when that would drop digits. */
export function toScaledInteger(value: Decimal, precession: number): bigint | null {
  if (value.scale <= precession) return value.coefficient * pow10(precession - value.scale);
  const divisor = pow10(value.scale - precession);
  return value.coefficient % divisor === 0n ? value.coefficient / divisor : null;
}

/** Integer division rounding half away from zero ("half-up" as accountants mean it). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = n / d + (2n * (n % d) >= d ? 1n : 0n);
  return negative ? -quotient : quotient;
}

/** Renders the decimal in plain notation, keeping its scale ("1.50" stays "1.50"). */
export function formatDecimal(value: Decimal): string {
  return formatScaledInteger(value.coefficient, value.scale);
}

/** Renders `units` × 10^-scale with exactly `scale` decimals. */
export function formatScaledInteger(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/**
 * Plain text without trailing fractional zeros ("0.9200" → "0.92", "1.0" → "1"). Counts the zeros
 * on the digits' text once: dividing by ten per zero was quadratic ("1." + 100 000 zeros took
 * seconds).
 */
export function normaliseDecimalText(value: Decimal): string {
  const { coefficient, scale } = value;
  if (scale === 0 || coefficient === 0n) return formatScaledInteger(coefficient, 0);
  const digits = (coefficient < 0n ? -coefficient : coefficient).toString();
  let zeros = 0;
  while (zeros < scale && digits.charCodeAt(digits.length - 1 - zeros) === 48) zeros += 1;
  if (zeros === 0) return formatScaledInteger(coefficient, scale);
  return formatScaledInteger(coefficient / pow10(zeros), scale - zeros);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`, whatever their scales. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const left = a.coefficient * pow10(scale - a.scale);
  const right = b.coefficient * pow10(scale - b.scale);
  return left === right ? 0 : left < right ? -1 : 1;
}
