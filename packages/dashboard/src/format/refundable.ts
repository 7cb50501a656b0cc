/**
 * What of a paid checkout may still be refunded, and whether an amount typed fits in it: exact,
 * on the API's decimal strings through bigint units of their longest fraction, never a float.
 */

const plainDecimal = /^\d+(?:\.\d+)?$/;

function units(amount: string, scale: number): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(scale, "0"));
}

function scaleOf(...amounts: string[]): number {
  return Math.max(0, ...amounts.map((amount) => amount.split(".")[1]?.length ?? 0));
}

function text(value: bigint, scale: number): string {
  const digits = value.toString().padStart(scale + 1, "0");
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** "25.00" paid, "5.00" refunded → "20.00". */
export function remainingAmount(paid: string, refunded: string): string {
  const scale = scaleOf(paid, refunded);
  return text(units(paid, scale) - units(refunded, scale), scale);
}

/** Null when `amount` is a positive decimal no larger than `remaining`, else why not. */
export function amountProblem(amount: string, remaining: string): string | null {
  if (!plainDecimal.test(amount)) return "Enter an amount such as 5.00.";
  const scale = scaleOf(amount, remaining);
  const asked = units(amount, scale);
  if (asked <= 0n) return "Enter an amount above zero.";
  if (asked > units(remaining, scale)) return `At most ${remaining} may still be refunded.`;
  return null;
}

export function isZero(amount: string): boolean {
  return /^0+(?:\.0+)?$/.test(amount);
}
