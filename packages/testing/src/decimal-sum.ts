/**
 * Exact sums of decimal texts ("12.50", "-3", 7): bigint of the smallest unit, the way money must
 * be added, so a test's reconciliation can never pass or fail by a float's rounding. A JSON number
 * (REST's history amounts) is taken by its shortest text, which is the decimal it was written from.
 */
export function sumDecimals(values: readonly (string | number)[]): string {
  const texts = values.map(String);
  const scale = Math.max(0, ...texts.map((value) => value.split(".")[1]?.length ?? 0));
  let total = 0n;
  for (const value of texts) {
    const [whole = "0", fraction = ""] = value.replace("-", "").split(".");
    const units = BigInt(whole + fraction.padEnd(scale, "0"));
    total += value.startsWith("-") ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
